#!/usr/bin/env bash
# Writes the message template (bot/i18n/po/ghostpost.pot) from every tr(), trc() and N_() of the
# sources and the hand-kept bot/i18n/po/game-words.pot, then merges it into each language's
# catalog: new messages arrive there untranslated, changed ones marked fuzzy, for a translator
# to finish (the suite fails until they are).
#   scripts/update-catalogs.sh          template and catalogs
#   scripts/update-catalogs.sh --pot F  only the template, written to F (the suite's check)
set -euo pipefail
cd "$(dirname "$0")/.."
po=bot/i18n/po
pot=$po/ghostpost.pot
only_pot=
if [[ ${1:-} == --pot ]]; then
    pot=$2
    only_pot=1
fi
# Sorted file names and no line numbers: the template changes only when a message does.
mapfile -t sources < <(git ls-files 'bot/*.cpp' 'bot/*.h' 'rules/*.cpp' 'rules/*.h' 'render/*.cpp' 'render/*.h' | LC_ALL=C sort)
xgettext --language=C++ --from-code=UTF-8 --no-location --sort-output --no-wrap \
    --keyword= --keyword=tr:1 --keyword=trc:1c,2 --keyword=N_:1 \
    --flag=tr:1:no-c-format --flag=trc:2:no-c-format --flag=N_:1:no-c-format \
    --package-name=ghostpost --msgid-bugs-address="the ghostpost issue tracker" \
    --add-comments=TRANSLATORS: -o "$pot" "${sources[@]}"
# The words the rules give (seats, the games' names, how a game ended) are kept by hand in a
# template of their own, since the shared code names no variant: added here.
sed -i 's/charset=CHARSET/charset=UTF-8/' "$pot"
msgcat --use-first --sort-output --no-wrap -o "$pot.all" "$pot" "$po/game-words.pot"
mv "$pot.all" "$pot"
# The creation date would change the template at every run.
sed -i '/^"POT-Creation-Date: /d' "$pot"
[[ -n $only_pot ]] && exit 0
for f in "$po"/*.po; do
    msgmerge --quiet --update --backup=none --no-wrap --no-location --sort-output "$f" "$pot"
done
