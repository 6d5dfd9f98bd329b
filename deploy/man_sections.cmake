# Writes help2man's include file: one section per subcommand of the ghostpost binary, each the
# subcommand's own --help. Run with -DBINARY=<ghostpost> -DOUT=<file>.
set(text "[DESCRIPTION]\nghostpost plays turn-based board games by post: FIDE chess and five ghost-themed variants, in Telegram, Discord, Matrix and Discourse, or on the console. It reads moves in algebraic notation, adjudicates them, keeps every game in SQLite and answers with a board.\n\n")
string(APPEND text "[FILES]\n.TP\n/etc/ghostpost/ghostpost.toml\nthe configuration of the systemd service; ghostpost.example.toml in the documentation folder explains every key\n.TP\n/var/lib/ghostpost\nthe service's database\n\n")
string(APPEND text "[ENVIRONMENT]\n.TP\nGHOSTPOST_TELEGRAM_TOKEN, GHOSTPOST_DISCORD_TOKEN, GHOSTPOST_MATRIX_TOKEN, GHOSTPOST_DISCOURSE_API_KEY\nthe platforms' secrets; each may be given in a file instead (the token_file or key_file key of its [platform.NAME] table). The environment wins over the file. Secrets never appear in the log.\n.TP\nGHOSTPOST_DATABASE_PASSWORD\nthe PostgreSQL password when [storage] url is set (or [storage] password_file).\n.TP\nNOTIFY_SOCKET, WATCHDOG_USEC\nset by systemd for a Type=notify unit: the daemon reports ready and pings the watchdog.\n\n")
string(APPEND text "[EXIT STATUS]\n.TP\n0\na graceful stop (SIGTERM or SIGINT), or run --check found the configuration and the database usable\n.TP\n1\nthe daemon could not run: the database cannot be opened, or a fault of its own\n.TP\n2\na bad configuration (the message names the key and the line), or every configured platform refuses the bot's credentials; one platform refused of several stops alone and the daemon goes on\n\n")
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
