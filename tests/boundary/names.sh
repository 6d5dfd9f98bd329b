#!/usr/bin/env bash
# The rule: the shared code names no variant and no platform. A variant's name is written only in
# its folder under rules/variants/ and in the engine's evaluation files (engine/src/eval_*.cpp); a
# platform's name only in its own folder bot/platforms/<name>/ and in the app's one list of
# platforms (bot/app/src/platform_modules.cpp and .h). Docs, tests and bench are not searched.
#
# The names, case-insensitive, each as a word of its own:
#   variants   ghost ghostarelay giveaway phantom haunted gnostic, and Ghost Chess's seat paradigm
#   platforms  telegram discord matrix discourse slack, and the mail platform's email imap smtp
# A word ends at anything but a letter or a digit (so `draw_phantom` and `phantom.h` are hits,
# `ghostpost` is not), and also where a lower-case letter meets a capital (`isPhantom`,
# `GhostChess`, `kTelegram`), so identifiers in camel case are caught too.
#
# The files searched: every tracked C++ source and header, CMake file and SQL file under bot/,
# rules/, render/, storage/, engine/ and config/. The storage migrations are searched as well:
# a database records only each migration's number and name, never a checksum of its text, so
# their comments can be worded like any other.
#
# An ordinary English word that only collides with a name (a graph edge's slack, a pairing's
# phantom player) is renamed in the code rather than excused here.
#
# Prints each file:line that breaks the rule, and fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

git ls-files -z -- bot rules render storage engine config |
    perl -e '
        my @variants = qw(ghost ghostarelay giveaway phantom haunted gnostic paradigm);
        my @platforms = qw(telegram discord matrix discourse slack email imap smtp);
        # A word starts with no letter or digit before it, or a capital after a lower-case
        # letter or digit; it ends after a lower-case letter with no lower-case letter or digit
        # next, after a capital with no letter or digit next (so GHOSTPOST is not GHOST).
        my $start = qr/(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))/;
        my $end = qr/(?:(?<=[a-z])(?![a-z0-9])|(?<=[A-Z])(?![A-Za-z0-9]))/;
        my $alt = join "|", @variants, @platforms;
        my $word = qr/$start((?i:$alt))$end/;
        my %platform = map { $_ => 1 } @platforms;
        my ($files, $hits) = (0, 0);
        local $/ = "\0";
        while (my $file = <STDIN>) {
            chomp $file;
            next unless $file =~ m{(\.(cpp|h|hpp|cc|cmake|sql)|(^|/)CMakeLists\.txt)$};
            $files++;
            # Where each name may be written in this file.
            next if $file =~ m{^rules/variants/} || $file =~ m{^engine/src/eval_[^/]*\.cpp$};
            my %allowed;
            if ($file =~ m{^bot/app/src/platform_modules\.(cpp|h)$}) {
                %allowed = %platform;
            } elsif ($file =~ m{^bot/platforms/([^/]+)/}) {
                $allowed{$1} = 1;
                @allowed{qw(imap smtp)} = (1, 1) if $1 eq "email";
            }
            open my $in, "<", $file or die "$file: $!";
            local $/ = "\n";
            while (my $line = <$in>) {
                my @names = grep { !$allowed{$_} } map { lc } ($line =~ /$word/g);
                next unless @names;
                print "$file:$.:$line";
                $hits++;
            }
        }
        if ($hits) {
            print STDERR "names: the $hits lines above name a variant or a platform outside its "
                . "place (tests/boundary/names.sh says where each may be named)\n";
            exit 1;
        }
        print "names: $files files name each variant and platform only in its place\n";
    '
