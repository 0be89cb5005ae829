# ops completion for fish: generated from the command tree by `ops completion fish`.
# Do not edit: regenerate with `npm run build && node dist/commands/completion/generate.js`.
# Install: ops completion fish > ~/.config/fish/completions/ops.fish   (see docs/completions.md)

function __ops_sub --argument-names cpath word
    switch "$cpath/$word"
        case '/bm'
            echo 'bm'
        case '/pipe'
            echo 'pipe'
        case '/hook'
            echo 'hook'
        case '/serve'
            echo 'serve'
        case '/auth'
            echo 'auth'
        case '/config'
            echo 'config'
        case '/completion'
            echo 'completion'
        case '/help'
            echo 'help'
        case 'auth/login'
            echo 'login'
        case 'auth/status'
            echo 'status'
        case 'auth/logout'
            echo 'logout'
        case 'config/list' 'config/ls'
            echo 'list'
        case 'config/get'
            echo 'get'
        case 'config/set'
            echo 'set'
        case 'config/unset'
            echo 'unset'
        case 'config/profiles'
            echo 'profiles'
        case 'config profiles/use'
            echo 'use'
        case 'config profiles/rm'
            echo 'rm'
    end
end

function __ops_subs --argument-names cpath
    switch "$cpath"
        case ''
            printf '%s\n' 'bm	Bookmarks: links, lists, tags, notes, search, bulk, trash, import/export' 'pipe	SQL pipelines: create, start, ingest, watch view changes, stats' 'hook	Webhooks: receive and verify, sign, replay, manage registrations' 'serve	Run all three services locally on embedded storage' 'auth	Log in to the services, show status, log out' 'config	Show and change settings and profiles' 'completion	Print a shell completion script (bash, zsh, fish)' 'help	Help on a command, or a topic: environment, exit-codes, formatting, config'
        case 'auth'
            printf '%s\n' 'login	Store the URL and secret of a service in the active profile, after checking them' 'status	Show what is configured for each service and whether it answers (secrets masked)' 'logout	Remove a service\'s secret (or all of them) from the active profile'
        case 'config'
            printf '%s\n' 'list	Show every setting of the active profile, where it comes from (secrets masked)' 'get	Print one setting (secrets masked unless --show-secret)' 'set	Set a setting in the active profile (secrets: value from stdin with "-", or a prompt)' 'unset	Remove a setting from the active profile' 'profiles	List profiles (the active one marked)'
        case 'config profiles'
            printf '%s\n' 'use	Make a profile the active one' 'rm	Delete a profile and its secrets'
    end
end

function __ops_opts --argument-names cpath
    printf '%s\n' '--profile	use this profile (env OPS_PROFILE)' '--json	print JSON (one array or object; NDJSON for streams)' '--no-color	no colour (also NO_COLOR, TERM=dumb)' '--no-input	never prompt (also OPS_NO_INPUT)' '--yes	answer yes to confirmations' '-y	answer yes to confirmations' '--bm-url	bookmark service URL (env OPS_BM_URL)' '--pipe-url	pipeline service URL (env OPS_PIPE_URL)' '--notify-url	notification service URL (env OPS_NOTIFY_URL)' '--timeout	HTTP timeout in seconds (default 30)'
    switch "$cpath"
        case ''
            printf '%s\n' '--version	print the version' '-V	print the version' '--help	show help' '-h	show help'
        case 'bm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'hook'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'serve'
            printf '%s\n' '--host	interface to listen on' '--port	port to listen on (0 picks a free one)' '--data-dir	where the services keep their data (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--rate-limit	bookmark API requests per minute per token, "60" or "60,1" (env API_RATE_LIMIT)' '--retry-scale	multiply webhook retry delays (0.001 runs the whole schedule in seconds)' '--pipelines-auth	require Authorization: Bearer apikey:... on the pipeline API' '--guest-access	let guests without a token read public bookmarks' '--no-link-check	do not check link health in the background' '--no-metadata	do not fetch page titles and descriptions for new links' '--demo	start with demo content in every service' '--help	show help' '-h	show help'
        case 'auth'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'auth login'
            printf '%s\n' '--url	the service base URL (default: the current one)' '--with-token	read the secret (token or API key) from stdin' '--no-verify	store without checking against the service' '--help	show help' '-h	show help'
        case 'auth status'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'auth logout'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config list'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config get'
            printf '%s\n' '--show-secret	print a secret in full' '--help	show help' '-h	show help'
        case 'config set'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config unset'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config profiles'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config profiles use'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'config profiles rm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'completion'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'help'
            printf '%s\n' '--help	show help' '-h	show help'
    end
end

# What option $argv[2] of command path $argv[1] takes ('' none, '-' free, c: d: f D); status 1 if unknown.
function __ops_value
    switch "$argv[2]"
        case '--profile'
            echo 'd:profiles'; return 0
        case '--json'
            echo ''; return 0
        case '--no-color'
            echo ''; return 0
        case '--no-input'
            echo ''; return 0
        case '--yes'
            echo ''; return 0
        case '-y'
            echo ''; return 0
        case '--bm-url'
            echo '-'; return 0
        case '--pipe-url'
            echo '-'; return 0
        case '--notify-url'
            echo '-'; return 0
        case '--timeout'
            echo '-'; return 0
    end
    switch "$argv[1]|$argv[2]"
        case '|--version'
            echo ''; return 0
        case '|-V'
            echo ''; return 0
        case '|--help'
            echo ''; return 0
        case '|-h'
            echo ''; return 0
        case 'bm|--help'
            echo ''; return 0
        case 'bm|-h'
            echo ''; return 0
        case 'pipe|--help'
            echo ''; return 0
        case 'pipe|-h'
            echo ''; return 0
        case 'hook|--help'
            echo ''; return 0
        case 'hook|-h'
            echo ''; return 0
        case 'serve|--host'
            echo '-'; return 0
        case 'serve|--port'
            echo '-'; return 0
        case 'serve|--data-dir'
            echo 'D'; return 0
        case 'serve|--rate-limit'
            echo '-'; return 0
        case 'serve|--retry-scale'
            echo '-'; return 0
        case 'serve|--pipelines-auth'
            echo ''; return 0
        case 'serve|--guest-access'
            echo ''; return 0
        case 'serve|--no-link-check'
            echo ''; return 0
        case 'serve|--no-metadata'
            echo ''; return 0
        case 'serve|--demo'
            echo ''; return 0
        case 'serve|--help'
            echo ''; return 0
        case 'serve|-h'
            echo ''; return 0
        case 'auth|--help'
            echo ''; return 0
        case 'auth|-h'
            echo ''; return 0
        case 'auth login|--url'
            echo '-'; return 0
        case 'auth login|--with-token'
            echo ''; return 0
        case 'auth login|--no-verify'
            echo ''; return 0
        case 'auth login|--help'
            echo ''; return 0
        case 'auth login|-h'
            echo ''; return 0
        case 'auth status|--help'
            echo ''; return 0
        case 'auth status|-h'
            echo ''; return 0
        case 'auth logout|--help'
            echo ''; return 0
        case 'auth logout|-h'
            echo ''; return 0
        case 'config|--help'
            echo ''; return 0
        case 'config|-h'
            echo ''; return 0
        case 'config list|--help'
            echo ''; return 0
        case 'config list|-h'
            echo ''; return 0
        case 'config get|--show-secret'
            echo ''; return 0
        case 'config get|--help'
            echo ''; return 0
        case 'config get|-h'
            echo ''; return 0
        case 'config set|--help'
            echo ''; return 0
        case 'config set|-h'
            echo ''; return 0
        case 'config unset|--help'
            echo ''; return 0
        case 'config unset|-h'
            echo ''; return 0
        case 'config profiles|--help'
            echo ''; return 0
        case 'config profiles|-h'
            echo ''; return 0
        case 'config profiles use|--help'
            echo ''; return 0
        case 'config profiles use|-h'
            echo ''; return 0
        case 'config profiles rm|--help'
            echo ''; return 0
        case 'config profiles rm|-h'
            echo ''; return 0
        case 'completion|--help'
            echo ''; return 0
        case 'completion|-h'
            echo ''; return 0
        case 'help|--help'
            echo ''; return 0
        case 'help|-h'
            echo ''; return 0
    end
    return 1
end

function __ops_arg
    switch "$argv[1]"
        case 'auth login'
            switch $argv[2]
                case 0
                    echo 'c:bm pipe notify'
            end
        case 'auth status'
            switch $argv[2]
                case 0
                    echo 'c:bm pipe notify'
            end
        case 'auth logout'
            switch $argv[2]
                case 0
                    echo 'c:bm pipe notify'
            end
        case 'config get'
            switch $argv[2]
                case 0
                    echo 'c:bm.url bm.token pipe.url pipe.api-key notify.url notify.api-key hook.secret'
            end
        case 'config set'
            switch $argv[2]
                case 0
                    echo 'c:bm.url bm.token pipe.url pipe.api-key notify.url notify.api-key hook.secret'
                case 1
                    echo '-'
            end
        case 'config unset'
            switch $argv[2]
                case 0
                    echo 'c:bm.url bm.token pipe.url pipe.api-key notify.url notify.api-key hook.secret'
            end
        case 'config profiles use'
            switch $argv[2]
                case 0
                    echo 'd:profiles'
            end
        case 'config profiles rm'
            switch $argv[2]
                case 0
                    echo 'd:profiles'
            end
        case 'completion'
            switch $argv[2]
                case 0
                    echo 'c:bash zsh fish'
            end
        case 'help'
            switch $argv[2]
                case 0
                    echo 'c:environment exit-codes formatting config bm pipe hook serve auth completion'
            end
    end
end

# Print the values coded $argv[1] for the token $argv[2]; $argv[3..] are the positional words.
function __ops_values
    set -l code $argv[1]
    set -l cur $argv[2]
    set -l pos $argv[3..-1]
    switch "$code"
        case 'c:*'
            string split ' ' -- (string sub -s 3 -- $code)
        case 'd:relations:*'
            set -l n (math (string sub -s 13 -- $code) + 1)
            if set -q pos[$n]
                $__ops_cmd $__ops_gopts completion __values relations $pos[$n] 2>/dev/null
            end
        case 'd:*'
            $__ops_cmd $__ops_gopts completion __values (string sub -s 3 -- $code) 2>/dev/null
        case f
            __fish_complete_path $cur
        case D
            __fish_complete_directories $cur
    end
end

function __ops_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -g __ops_cmd $tokens[1]
    set -g __ops_gopts
    set -l cpath ''
    set -l pos
    set -l ddash 0
    set -l skip 0
    set -l prev ''
    for i in (seq 2 (count $tokens))
        set -l word $tokens[$i]
        set prev $word
        if test $skip = 1
            set skip 0
            continue
        end
        if test $ddash = 1
            set -a pos $word
        else if test "$word" = '--'
            set ddash 1
        else if string match -q -- '-*' $word
            if string match -q -- '--*=*' $word
                __ops_value '' (string split -m 1 '=' -- $word)[1] >/dev/null; and set -a __ops_gopts $word
            else
                set -l code (__ops_value "$cpath" $word)
                if test -n "$code"
                    set skip 1
                    if __ops_value '' $word >/dev/null; and test $i -lt (count $tokens)
                        set -a __ops_gopts $word $tokens[(math $i + 1)]
                    end
                end
            end
        else
            set -l sub (__ops_sub "$cpath" $word)
            if test -n "$sub"; and test (count $pos) -eq 0
                if test -z "$cpath"
                    set cpath $sub
                else
                    set cpath "$cpath $sub"
                end
            else
                set -a pos $word
            end
        end
    end
    # The value of an option: "--opt value" (the option was the last word) or "--opt=value".
    if test $ddash = 0; and test $skip = 1
        set -l code (__ops_value "$cpath" $prev)
        __ops_values "$code" $cur $pos
        return
    end
    if test $ddash = 0; and string match -q -- '--*=*' $cur
        set -l parts (string split -m 1 '=' -- $cur)
        set -l code (__ops_value "$cpath" $parts[1])
        or return
        for v in (__ops_values "$code" $parts[2] $pos)
            echo "$parts[1]=$v"
        end
        return
    end
    if test $ddash = 0; and string match -q -- '-*' $cur
        __ops_opts "$cpath"
        return
    end
    set -l subs (__ops_subs "$cpath")
    if test (count $subs) -gt 0; and test (count $pos) -eq 0
        printf '%s\n' $subs
        return
    end
    set -l code (__ops_arg "$cpath" (count $pos))
    test -n "$code"; and __ops_values "$code" $cur $pos
end

complete -c ops -e
complete -c ops -f -a '(__ops_complete)'
