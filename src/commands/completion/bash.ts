/**
 * The bash completion script: generated tables (case statements, so bash 3.2 works too) and a fixed
 * driver that walks the words typed so far to the current command, then offers its subcommands, its
 * options, an option's values or a positional argument's values.
 */
import type { CommandSpec } from '../../docs/tree.js';
import { banner, buildTables, type PathTable } from './tables.js';
import { argCases, sq, subCases, valueCases } from './posix.js';

/** A word in single quotes for bash. */
function listCases(paths: PathTable[], get: (p: PathTable) => string[]): string {
  return paths
    .map((p) => ({ p, words: get(p) }))
    .filter(({ words }) => words.length > 0)
    .map(({ p, words }) => `    ${sq(p.path)}) __ops_r=${sq(words.join(' '))} ;;`)
    .join('\n');
}

export function bashScript(root: CommandSpec): string {
  const { paths, globals } = buildTables(root);
  const globalCases = globals.map((o) => `    ${sq(o.word)}) __ops_r=${sq(o.value)}; return 0 ;;`).join('\n');
  return `${banner('bash')}
# Install: ops completion bash > ~/.local/share/bash-completion/completions/ops
#      or: echo 'source <(ops completion bash)' >> ~/.bashrc   (see docs/completions.md)

# Canonical name of subcommand $2 of command path $1 (aliases resolved), or empty.
__ops_sub() {
  __ops_r=
  case "$1/$2" in
${subCases(paths)}
  esac
}

# Subcommands of command path $1.
__ops_subs() {
  __ops_r=
  case "$1" in
${listCases(paths, (p) => p.subs.map((s) => s.name))}
  esac
}

# Options of command path $1 (the global options are added by the caller).
__ops_opts() {
  __ops_r=
  case "$1" in
${listCases(paths, (p) => p.opts.map((o) => o.word))}
  esac
}
__ops_globals=${sq(globals.map((o) => o.word).join(' '))}

# What option $2 of command path $1 takes: '' nothing, '-' a free value, 'c:...' choices,
# 'd:...' names from \`ops completion __values\`, 'f' a file, 'D' a directory. Returns 1 if unknown.
__ops_value() {
  __ops_r=
  case "$2" in
${globalCases}
  esac
  case "$1|$2" in
${valueCases(paths)}
  esac
  return 1
}

# What positional argument $2 (from 0) of command path $1 takes, coded as for __ops_value.
__ops_arg() {
  __ops_r=
  case "$1" in
${argCases(paths, (n) => `[ "$2" -ge ${n} ]`)}
  esac
}

# Candidates for a value coded $1 matching $2; $3.. are the positional words (for relations).
__ops_values() {
  local code="$1" cur="$2" names
  shift 2
  case "$code" in
    c:*) COMPREPLY=($(compgen -W "\${code#c:}" -- "$cur")) ;;
    d:relations:*)
      local n="\${code#d:relations:}" pos=("$@")
      [ -n "\${pos[$n]}" ] || return 0
      names="$("\${__ops_cmd}" "\${__ops_gopts[@]}" completion __values relations "\${pos[$n]}" 2>/dev/null)"
      # table and view names are looked up ignoring case: "rev" completes REVENUE
      local restore name
      restore="$(shopt -p nocasematch)"
      shopt -s nocasematch
      for name in $names; do [[ "$name" == "$cur"* ]] && COMPREPLY+=("$name"); done
      $restore ;;
    d:*)
      names="$("\${__ops_cmd}" "\${__ops_gopts[@]}" completion __values "\${code#d:}" 2>/dev/null)"
      COMPREPLY=($(compgen -W "$names" -- "$cur")) ;;
    f) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    D) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
  esac
}

_ops() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cpath="" word i=1 ddash=0 opt="" prefix=""
  local pos=() __ops_r __ops_cmd="\${COMP_WORDS[0]}" __ops_gopts=()
  COMPREPLY=()
  # The option whose value is being typed, with --opt=value split or not by COMP_WORDBREAKS.
  if [ "$cur" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
    opt="\${COMP_WORDS[COMP_CWORD-1]}"; cur=""
  elif [ "$COMP_CWORD" -ge 3 ] && [ "\${COMP_WORDS[COMP_CWORD-1]}" = "=" ]; then
    opt="\${COMP_WORDS[COMP_CWORD-2]}"
  elif [[ "$cur" == --*=* ]]; then
    opt="\${cur%%=*}"; prefix="$opt="; cur="\${cur#*=}"
  elif [ "$COMP_CWORD" -ge 2 ]; then
    prev="\${COMP_WORDS[COMP_CWORD-1]}"
  fi
  local last=$COMP_CWORD
  [ -n "$opt" ] && [ -z "$prefix" ] && { [ "\${COMP_WORDS[COMP_CWORD]}" = "=" ] && last=$((COMP_CWORD-1)) || last=$((COMP_CWORD-2)); }
  while [ "$i" -lt "$last" ]; do
    word="\${COMP_WORDS[i]}"
    if [ "$ddash" = 1 ]; then
      pos+=("$word")
    elif [ "$word" = "--" ]; then
      ddash=1
    elif [[ "$word" == -* ]]; then
      if [ "\${COMP_WORDS[i+1]}" = "=" ]; then
        __ops_value "" "$word" && __ops_gopts+=("$word" "\${COMP_WORDS[i+2]}")
        i=$((i+2))
      elif [[ "$word" == --*=* ]]; then
        __ops_value "" "\${word%%=*}" && __ops_gopts+=("$word")
      elif __ops_value "$cpath" "$word" && [ -n "$__ops_r" ] && [ $((i+1)) -lt "$last" ]; then
        __ops_value "" "$word" && __ops_gopts+=("$word" "\${COMP_WORDS[i+1]}")
        i=$((i+1))
      fi
    else
      __ops_sub "$cpath" "$word"
      if [ -n "$__ops_r" ] && [ "\${#pos[@]}" -eq 0 ]; then
        cpath="\${cpath:+$cpath }$__ops_r"
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
    __ops_values "$__ops_r" "$cur" "\${pos[@]}"
    if [ -n "$prefix" ]; then
      local k
      for k in "\${!COMPREPLY[@]}"; do COMPREPLY[k]="$prefix\${COMPREPLY[k]}"; done
    fi
    return 0
  fi
  if [ "$ddash" = 0 ] && [[ "$cur" == -* ]]; then
    __ops_opts "$cpath"
    COMPREPLY=($(compgen -W "$__ops_r $__ops_globals" -- "$cur"))
    return 0
  fi
  __ops_subs "$cpath"
  if [ -n "$__ops_r" ] && [ "\${#pos[@]}" -eq 0 ]; then
    COMPREPLY=($(compgen -W "$__ops_r" -- "$cur"))
    return 0
  fi
  __ops_arg "$cpath" "\${#pos[@]}"
  [ -n "$__ops_r" ] && __ops_values "$__ops_r" "$cur" "\${pos[@]}"
  return 0
}

complete -F _ops ops
`;
}
