# ops completion for bash: generated from the command tree by `ops completion bash`.
# Do not edit: regenerate with `npm run build && node dist/commands/completion/generate.js`.
# Install: ops completion bash > ~/.local/share/bash-completion/completions/ops
#      or: echo 'source <(ops completion bash)' >> ~/.bashrc   (see docs/completions.md)

# Canonical name of subcommand $2 of command path $1 (aliases resolved), or empty.
__ops_sub() {
  __ops_r=
  case "$1/$2" in
    '/bm') __ops_r='bm' ;;
    '/pipe') __ops_r='pipe' ;;
    '/hook') __ops_r='hook' ;;
    '/serve') __ops_r='serve' ;;
    '/auth') __ops_r='auth' ;;
    '/config') __ops_r='config' ;;
    '/completion') __ops_r='completion' ;;
    '/help') __ops_r='help' ;;
    'auth/login') __ops_r='login' ;;
    'auth/status') __ops_r='status' ;;
    'auth/logout') __ops_r='logout' ;;
    'config/list'|'config/ls') __ops_r='list' ;;
    'config/get') __ops_r='get' ;;
    'config/set') __ops_r='set' ;;
    'config/unset') __ops_r='unset' ;;
    'config/profiles') __ops_r='profiles' ;;
    'config profiles/use') __ops_r='use' ;;
    'config profiles/rm') __ops_r='rm' ;;
  esac
}

# Subcommands of command path $1.
__ops_subs() {
  __ops_r=
  case "$1" in
    '') __ops_r='bm pipe hook serve auth config completion help' ;;
    'auth') __ops_r='login status logout' ;;
    'config') __ops_r='list get set unset profiles' ;;
    'config profiles') __ops_r='use rm' ;;
  esac
}

# Options of command path $1 (the global options are added by the caller).
__ops_opts() {
  __ops_r=
  case "$1" in
    '') __ops_r='--version -V --help -h' ;;
    'bm') __ops_r='--help -h' ;;
    'pipe') __ops_r='--help -h' ;;
    'hook') __ops_r='--help -h' ;;
    'serve') __ops_r='--host --port --data-dir --rate-limit --retry-scale --pipelines-auth --guest-access --no-link-check --no-metadata --demo --help -h' ;;
    'auth') __ops_r='--help -h' ;;
    'auth login') __ops_r='--url --with-token --no-verify --help -h' ;;
    'auth status') __ops_r='--help -h' ;;
    'auth logout') __ops_r='--help -h' ;;
    'config') __ops_r='--help -h' ;;
    'config list') __ops_r='--help -h' ;;
    'config get') __ops_r='--show-secret --help -h' ;;
    'config set') __ops_r='--help -h' ;;
    'config unset') __ops_r='--help -h' ;;
    'config profiles') __ops_r='--help -h' ;;
    'config profiles use') __ops_r='--help -h' ;;
    'config profiles rm') __ops_r='--help -h' ;;
    'completion') __ops_r='--help -h' ;;
    'help') __ops_r='--help -h' ;;
  esac
}
__ops_globals='--profile --json --no-color --no-input --yes -y --bm-url --pipe-url --notify-url --timeout'

# What option $2 of command path $1 takes: '' nothing, '-' a free value, 'c:...' choices,
# 'd:...' names from `ops completion __values`, 'f' a file, 'D' a directory. Returns 1 if unknown.
__ops_value() {
  __ops_r=
  case "$2" in
    '--profile') __ops_r='d:profiles'; return 0 ;;
    '--json') __ops_r=''; return 0 ;;
    '--no-color') __ops_r=''; return 0 ;;
    '--no-input') __ops_r=''; return 0 ;;
    '--yes') __ops_r=''; return 0 ;;
    '-y') __ops_r=''; return 0 ;;
    '--bm-url') __ops_r='-'; return 0 ;;
    '--pipe-url') __ops_r='-'; return 0 ;;
    '--notify-url') __ops_r='-'; return 0 ;;
    '--timeout') __ops_r='-'; return 0 ;;
  esac
  case "$1|$2" in
    '|--version') __ops_r=''; return 0 ;;
    '|-V') __ops_r=''; return 0 ;;
    '|--help') __ops_r=''; return 0 ;;
    '|-h') __ops_r=''; return 0 ;;
    'bm|--help') __ops_r=''; return 0 ;;
    'bm|-h') __ops_r=''; return 0 ;;
    'pipe|--help') __ops_r=''; return 0 ;;
    'pipe|-h') __ops_r=''; return 0 ;;
    'hook|--help') __ops_r=''; return 0 ;;
    'hook|-h') __ops_r=''; return 0 ;;
    'serve|--host') __ops_r='-'; return 0 ;;
    'serve|--port') __ops_r='-'; return 0 ;;
    'serve|--data-dir') __ops_r='D'; return 0 ;;
    'serve|--rate-limit') __ops_r='-'; return 0 ;;
    'serve|--retry-scale') __ops_r='-'; return 0 ;;
    'serve|--pipelines-auth') __ops_r=''; return 0 ;;
    'serve|--guest-access') __ops_r=''; return 0 ;;
    'serve|--no-link-check') __ops_r=''; return 0 ;;
    'serve|--no-metadata') __ops_r=''; return 0 ;;
    'serve|--demo') __ops_r=''; return 0 ;;
    'serve|--help') __ops_r=''; return 0 ;;
    'serve|-h') __ops_r=''; return 0 ;;
    'auth|--help') __ops_r=''; return 0 ;;
    'auth|-h') __ops_r=''; return 0 ;;
    'auth login|--url') __ops_r='-'; return 0 ;;
    'auth login|--with-token') __ops_r=''; return 0 ;;
    'auth login|--no-verify') __ops_r=''; return 0 ;;
    'auth login|--help') __ops_r=''; return 0 ;;
    'auth login|-h') __ops_r=''; return 0 ;;
    'auth status|--help') __ops_r=''; return 0 ;;
    'auth status|-h') __ops_r=''; return 0 ;;
    'auth logout|--help') __ops_r=''; return 0 ;;
    'auth logout|-h') __ops_r=''; return 0 ;;
    'config|--help') __ops_r=''; return 0 ;;
    'config|-h') __ops_r=''; return 0 ;;
    'config list|--help') __ops_r=''; return 0 ;;
    'config list|-h') __ops_r=''; return 0 ;;
    'config get|--show-secret') __ops_r=''; return 0 ;;
    'config get|--help') __ops_r=''; return 0 ;;
    'config get|-h') __ops_r=''; return 0 ;;
    'config set|--help') __ops_r=''; return 0 ;;
    'config set|-h') __ops_r=''; return 0 ;;
    'config unset|--help') __ops_r=''; return 0 ;;
    'config unset|-h') __ops_r=''; return 0 ;;
    'config profiles|--help') __ops_r=''; return 0 ;;
    'config profiles|-h') __ops_r=''; return 0 ;;
    'config profiles use|--help') __ops_r=''; return 0 ;;
    'config profiles use|-h') __ops_r=''; return 0 ;;
    'config profiles rm|--help') __ops_r=''; return 0 ;;
    'config profiles rm|-h') __ops_r=''; return 0 ;;
    'completion|--help') __ops_r=''; return 0 ;;
    'completion|-h') __ops_r=''; return 0 ;;
    'help|--help') __ops_r=''; return 0 ;;
    'help|-h') __ops_r=''; return 0 ;;
  esac
  return 1
}

# What positional argument $2 (from 0) of command path $1 takes, coded as for __ops_value.
__ops_arg() {
  __ops_r=
  case "$1" in
    'auth login') case "$2" in 0) __ops_r='c:bm pipe notify' ;; esac ;;
    'auth status') case "$2" in 0) __ops_r='c:bm pipe notify' ;; esac ;;
    'auth logout') case "$2" in 0) __ops_r='c:bm pipe notify' ;; esac ;;
    'config get') case "$2" in 0) __ops_r='c:bm.url bm.token pipe.url pipe.api-key notify.url notify.api-key hook.secret' ;; esac ;;
    'config set') case "$2" in 0) __ops_r='c:bm.url bm.token pipe.url pipe.api-key notify.url notify.api-key hook.secret' ;; 1) __ops_r='-' ;; esac ;;
    'config unset') case "$2" in 0) __ops_r='c:bm.url bm.token pipe.url pipe.api-key notify.url notify.api-key hook.secret' ;; esac ;;
    'config profiles use') case "$2" in 0) __ops_r='d:profiles' ;; esac ;;
    'config profiles rm') case "$2" in 0) __ops_r='d:profiles' ;; esac ;;
    'completion') case "$2" in 0) __ops_r='c:bash zsh fish' ;; esac ;;
    'help') case "$2" in 0) __ops_r='c:environment exit-codes formatting config bm pipe hook serve auth completion' ;; esac ;;
  esac
}

# Candidates for a value coded $1 matching $2; $3.. are the positional words (for relations).
__ops_values() {
  local code="$1" cur="$2" names
  shift 2
  case "$code" in
    c:*) COMPREPLY=($(compgen -W "${code#c:}" -- "$cur")) ;;
    d:relations:*)
      local n="${code#d:relations:}" pos=("$@")
      [ -n "${pos[$n]}" ] || return 0
      names="$("${__ops_cmd}" "${__ops_gopts[@]}" completion __values relations "${pos[$n]}" 2>/dev/null)"
      COMPREPLY=($(compgen -W "$names" -- "$cur")) ;;
    d:*)
      names="$("${__ops_cmd}" "${__ops_gopts[@]}" completion __values "${code#d:}" 2>/dev/null)"
      COMPREPLY=($(compgen -W "$names" -- "$cur")) ;;
    f) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    D) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
  esac
}

_ops() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cpath="" word i=1 ddash=0 opt="" prefix=""
  local pos=() __ops_r __ops_cmd="${COMP_WORDS[0]}" __ops_gopts=()
  COMPREPLY=()
  # The option whose value is being typed, with --opt=value split or not by COMP_WORDBREAKS.
  if [ "$cur" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
    opt="${COMP_WORDS[COMP_CWORD-1]}"; cur=""
  elif [ "$COMP_CWORD" -ge 3 ] && [ "${COMP_WORDS[COMP_CWORD-1]}" = "=" ]; then
    opt="${COMP_WORDS[COMP_CWORD-2]}"
  elif [[ "$cur" == --*=* ]]; then
    opt="${cur%%=*}"; prefix="$opt="; cur="${cur#*=}"
  elif [ "$COMP_CWORD" -ge 2 ]; then
    prev="${COMP_WORDS[COMP_CWORD-1]}"
  fi
  local last=$COMP_CWORD
  [ -n "$opt" ] && [ -z "$prefix" ] && { [ "${COMP_WORDS[COMP_CWORD]}" = "=" ] && last=$((COMP_CWORD-1)) || last=$((COMP_CWORD-2)); }
  while [ "$i" -lt "$last" ]; do
    word="${COMP_WORDS[i]}"
    if [ "$ddash" = 1 ]; then
      pos+=("$word")
    elif [ "$word" = "--" ]; then
      ddash=1
    elif [[ "$word" == -* ]]; then
      if [ "${COMP_WORDS[i+1]}" = "=" ]; then
        __ops_value "" "$word" && __ops_gopts+=("$word" "${COMP_WORDS[i+2]}")
        i=$((i+2))
      elif [[ "$word" == --*=* ]]; then
        __ops_value "" "${word%%=*}" && __ops_gopts+=("$word")
      elif __ops_value "$cpath" "$word" && [ -n "$__ops_r" ] && [ $((i+1)) -lt "$last" ]; then
        __ops_value "" "$word" && __ops_gopts+=("$word" "${COMP_WORDS[i+1]}")
        i=$((i+1))
      fi
    else
      __ops_sub "$cpath" "$word"
      if [ -n "$__ops_r" ] && [ "${#pos[@]}" -eq 0 ]; then
        cpath="${cpath:+$cpath }$__ops_r"
      else
        pos+=("$word")
      fi
    fi
    i=$((i+1))
  done
  # The value of an option?
  [ -z "$opt" ] && [ "$ddash" = 0 ] && [[ "$prev" == -* ]] && { __ops_value "$cpath" "$prev"; [ -n "$__ops_r" ]; } && opt="$prev"
  if [ -n "$opt" ]; then
    __ops_value "$cpath" "$opt" || return 0
    __ops_values "$__ops_r" "$cur" "${pos[@]}"
    if [ -n "$prefix" ]; then
      local k
      for k in "${!COMPREPLY[@]}"; do COMPREPLY[k]="$prefix${COMPREPLY[k]}"; done
    fi
    return 0
  fi
  if [ "$ddash" = 0 ] && [[ "$cur" == -* ]]; then
    __ops_opts "$cpath"
    COMPREPLY=($(compgen -W "$__ops_r $__ops_globals" -- "$cur"))
    return 0
  fi
  __ops_subs "$cpath"
  if [ -n "$__ops_r" ] && [ "${#pos[@]}" -eq 0 ]; then
    COMPREPLY=($(compgen -W "$__ops_r" -- "$cur"))
    return 0
  fi
  __ops_arg "$cpath" "${#pos[@]}"
  [ -n "$__ops_r" ] && __ops_values "$__ops_r" "$cur" "${pos[@]}"
  return 0
}

complete -F _ops ops
