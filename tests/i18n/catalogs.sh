#!/usr/bin/env bash
# The catalogs as gettext's own tools see them: each .po passes `msgfmt --check`, and the
# template holds exactly the messages of the sources (scripts/update-catalogs.sh was run after
# the last change of a message), and each glossary in docs/glossary lists its catalog's words.
set -euo pipefail
root=$1
status=0
for f in "$root"/bot/i18n/po/*.po; do
    msgfmt --check -o /dev/null "$f" || { echo "msgfmt --check fails: $f"; status=1; }
done
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
"$root/scripts/update-catalogs.sh" --pot "$fresh" 2>/dev/null
if ! diff -u "$root/bot/i18n/po/ghostpost.pot" "$fresh"; then
    echo "bot/i18n/po/ghostpost.pot is not the sources' messages: run scripts/update-catalogs.sh"
    status=1
fi
# The glossaries list the catalogs' words (the entries with a context) as they are.
if ! python3 "$root/scripts/update-glossaries.py" --check; then
    status=1
fi
exit $status
