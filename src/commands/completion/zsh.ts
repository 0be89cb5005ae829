/**
 * The zsh completion script (`#compdef ops`): the same tables as bash, with descriptions, and a driver
 * that offers subcommands and options through `_describe`, values through `compadd`, files through `_files`.
 */
import type { CommandSpec } from '../../docs/tree.js';
import { banner, buildTables, type PathTable } from './tables.js';
import { argCases, sq, subCases, valueCases } from './posix.js';

/** `word:description` for _describe (colons in the word escaped, one line). */
function described(word: string, description: string): string {
  return sq(`${word.replace(/:/g, '\\:')}:${description.replace(/\s+/g, ' ').trim()}`);
}

function arrayCases(paths: PathTable[], get: (p: PathTable) => string[]): string {
  return paths
    .map((p) => ({ p, items: get(p) }))
    .filter(({ items }) => items.length > 0)
    .map(({ p, items }) => `    ${sq(p.path)}) __ops_a=(\n      ${items.join('\n      ')}\n    ) ;;`)
    .join('\n');
}

export function zshScript(root: CommandSpec): string {
  const { paths, globals } = buildTables(root);
  const globalCases = globals.map((o) => `    ${sq(o.word)}) __ops_r=${sq(o.value)}; return 0 ;;`).join('\n');
  return `#compdef ops
${banner('zsh')}
# Install: put this file, named _ops, in a directory of $fpath (see docs/completions.md), or
#   source <(ops completion zsh)

__ops_sub() {
  __ops_r=
  case "$1/$2" in
${subCases(paths)}
  esac
}

__ops_subs() {
  __ops_a=()
  case "$1" in
${arrayCases(paths, (p) => p.subs.map((s) => described(s.name, s.summary)))}
  esac
}

__ops_opts() {
  __ops_a=()
  case "$1" in
${arrayCases(paths, (p) => p.opts.map((o) => described(o.word, o.description)))}
  esac
  __ops_a+=(
    ${globals.map((o) => described(o.word, o.description)).join('\n    ')}
  )
}

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

__ops_arg() {
  __ops_r=
  case "$1" in
${argCases(paths, (n) => `(( $2 >= ${n} ))`)}
  esac
}

# Offer the values coded $1 ($2.. the positional words, for relations).
__ops_values() {
  local code="$1" n
  shift
  local -a pos names
  pos=("$@")
  case "$code" in
    c:*) names=(\${=code#c:}); compadd -a names ;;
    d:relations:*)
      n=$(( \${code#d:relations:} + 1 ))
      [[ -n "\${pos[n]}" ]] || return 1
      names=(\${(f)"$(\${__ops_cmd} "\${__ops_gopts[@]}" completion __values relations "\${pos[n]}" 2>/dev/null)"})
      # table and view names are looked up ignoring case
      compadd -M 'm:{a-zA-Z}={A-Za-z}' -a names ;;
    d:*)
      names=(\${(f)"$(\${__ops_cmd} "\${__ops_gopts[@]}" completion __values "\${code#d:}" 2>/dev/null)"})
      compadd -a names ;;
    f) _files ;;
    D) _files -/ ;;
    *) return 1 ;;
  esac
}

_ops() {
  local cur="\${words[CURRENT]}" prev="" cpath="" word opt="" __ops_r
  local -i i=2 ddash=0
  local -a pos __ops_a __ops_gopts
  local __ops_cmd="\${words[1]}"
  (( CURRENT > 2 )) && prev="\${words[CURRENT-1]}"
  while (( i < CURRENT )); do
    word="\${words[i]}"
    if (( ddash )); then
      pos+=("$word")
    elif [[ "$word" == "--" ]]; then
      ddash=1
    elif [[ "$word" == -* ]]; then
      if [[ "$word" == --*=* ]]; then
        __ops_value "" "\${word%%=*}" && __ops_gopts+=("$word")
      elif __ops_value "$cpath" "$word" && [[ -n "$__ops_r" ]] && (( i + 1 < CURRENT )); then
        __ops_value "" "$word" && __ops_gopts+=("$word" "\${words[i+1]}")
        (( i++ ))
      fi
    else
      __ops_sub "$cpath" "$word"
      if [[ -n "$__ops_r" ]] && (( \${#pos} == 0 )); then
        cpath="\${cpath:+$cpath }$__ops_r"
      else
        pos+=("$word")
      fi
    fi
    (( i++ ))
  done
  if (( ! ddash )) && [[ "$cur" == --*=* ]]; then
    opt="\${cur%%=*}"
    compset -P '*='
  elif (( ! ddash )) && [[ "$prev" == -* ]] && __ops_value "$cpath" "$prev" && [[ -n "$__ops_r" ]]; then
    opt="$prev"
  fi
  if [[ -n "$opt" ]]; then
    __ops_value "$cpath" "$opt" || return 1
    __ops_values "$__ops_r" "\${pos[@]}"
    return
  fi
  if (( ! ddash )) && [[ "$cur" == -* ]]; then
    __ops_opts "$cpath"
    _describe -t options 'option' __ops_a
    return
  fi
  __ops_subs "$cpath"
  if (( \${#__ops_a} > 0 && \${#pos} == 0 )); then
    _describe -t commands 'command' __ops_a
    return
  fi
  __ops_arg "$cpath" "\${#pos}"
  [[ -n "$__ops_r" ]] && __ops_values "$__ops_r" "\${pos[@]}"
}

if [[ "\${zsh_eval_context[-1]}" == loadautoload ]]; then
  _ops "$@"
else
  compdef _ops ops
fi
`;
}
