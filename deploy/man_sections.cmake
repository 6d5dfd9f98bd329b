# Writes help2man's include file: one section per subcommand of the ghostpost binary, each the
# subcommand's own --help. Run with -DBINARY=<ghostpost> -DOUT=<file>.
set(text "[DESCRIPTION]\nghostpost plays turn-based board games by post: FIDE chess and five ghost-themed variants, in Telegram, Discord, Matrix and Discourse, or on the console. It reads moves in algebraic notation, adjudicates them, keeps every game in SQLite and answers with a board.\n\n")
string(APPEND text "[FILES]\n.TP\n/etc/ghostpost/ghostpost.toml\nthe configuration of the systemd service; ghostpost.example.toml in the documentation folder explains every key\n.TP\n/var/lib/ghostpost\nthe service's database\n\n")
foreach(sub run console web perft replay render)
    execute_process(COMMAND ${BINARY} ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${BINARY} ${sub} --help failed with ${rc}")
    endif()
    # roff: a leading dot or quote would start a request; backslashes are escapes.
    string(REPLACE "\\" "\\\\" help "${help}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
    string(APPEND text "[GHOSTPOST ${sub}]\n.nf\n${help}.fi\n\n")
endforeach()
file(WRITE ${OUT} "${text}")
