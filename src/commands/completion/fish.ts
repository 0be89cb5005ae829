/**
 * The fish completion script: the same tables as bash, as `switch` statements, and one function that
 * walks the command line and prints `candidate<TAB>description` lines (files through fish's own helpers).
 */
import type { CommandSpec } from '../../docs/tree.js';
import { banner, buildTables, type PathTable } from './tables.js';

/** A fish single-quoted string (only \\ and ' are special inside). */
export function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function line(word: string, description: string): string {
  return fq(`${word}\t${description.replace(/\s+/g, ' ').trim()}`);
}

function subCases(paths: PathTable[]): string {
  const lines: string[] = [];
  for (const p of paths) {
    for (const s of p.subs) {
      lines.push(`        case ${[s.name, ...s.aliases].map((w) => fq(`${p.path}/${w}`)).join(' ')}\n            echo ${fq(s.name)}`);
    }
  }
  return lines.join('\n');
}

function listCases(paths: PathTable[], get: (p: PathTable) => string[]): string {
  return paths
    .map((p) => ({ p, items: get(p) }))
    .filter(({ items }) => items.length > 0)
    .map(({ p, items }) => `        case ${fq(p.path)}\n            printf '%s\\n' ${items.join(' ')}`)
    .join('\n');
}

function valueCases(paths: PathTable[]): string {
  const lines: string[] = [];
  for (const p of paths) for (const o of p.opts) lines.push(`        case ${fq(`${p.path}|${o.word}`)}\n            echo ${fq(o.value)}; return 0`);
  return lines.join('\n');
}

function argCases(paths: PathTable[]): string {
  const lines: string[] = [];
  for (const p of paths) {
    if (p.args.length === 0) continue;
    const inner = p.args.map((code, i) => `                case ${i}\n                    echo ${fq(code)}`);
    if (p.variadic) inner.push(`                case '*'\n                    test $argv[2] -ge ${p.args.length - 1}; and echo ${fq(p.args.at(-1)!)}`);
    lines.push(`        case ${fq(p.path)}\n            switch $argv[2]\n${inner.join('\n')}\n            end`);
  }
  return lines.join('\n');
}

export function fishScript(root: CommandSpec): string {
  const { paths, globals } = buildTables(root);
  return `${banner('fish')}
# Install: ops completion fish > ~/.config/fish/completions/ops.fish   (see docs/completions.md)

function __ops_sub --argument-names cpath word
    switch "$cpath/$word"
${subCases(paths)}
    end
end

function __ops_subs --argument-names cpath
    switch "$cpath"
${listCases(paths, (p) => p.subs.map((s) => line(s.name, s.summary)))}
    end
end

function __ops_opts --argument-names cpath
    printf '%s\\n' ${globals.map((o) => line(o.word, o.description)).join(' ')}
    switch "$cpath"
${listCases(paths, (p) => p.opts.map((o) => line(o.word, o.description)))}
    end
end

# What option $argv[2] of command path $argv[1] takes ('' none, '-' free, c: d: f D); status 1 if unknown.
function __ops_value
    switch "$argv[2]"
${globals.map((o) => `        case ${fq(o.word)}\n            echo ${fq(o.value)}; return 0`).join('\n')}
    end
    switch "$argv[1]|$argv[2]"
${valueCases(paths)}
    end
    return 1
end

function __ops_arg
    switch "$argv[1]"
${argCases(paths)}
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
        printf '%s\\n' $subs
        return
    end
    set -l code (__ops_arg "$cpath" (count $pos))
    test -n "$code"; and __ops_values "$code" $cur $pos
end

complete -c ops -e
complete -c ops -f -a '(__ops_complete)'
`;
}
