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
    'bm/links'|'bm/link') __ops_r='links' ;;
    'bm/lists'|'bm/list') __ops_r='lists' ;;
    'bm/tags'|'bm/tag') __ops_r='tags' ;;
    'bm/notes'|'bm/note') __ops_r='notes' ;;
    'bm/search') __ops_r='search' ;;
    'bm/bulk') __ops_r='bulk' ;;
    'bm/trash') __ops_r='trash' ;;
    'bm/import') __ops_r='import' ;;
    'bm/export') __ops_r='export' ;;
    'bm/check') __ops_r='check' ;;
    'bm/version') __ops_r='version' ;;
    'bm links/list'|'bm links/ls') __ops_r='list' ;;
    'bm links/get'|'bm links/show') __ops_r='get' ;;
    'bm links/add') __ops_r='add' ;;
    'bm links/edit') __ops_r='edit' ;;
    'bm links/rm'|'bm links/delete') __ops_r='rm' ;;
    'bm links/open') __ops_r='open' ;;
    'bm links/notes') __ops_r='notes' ;;
    'bm lists/list'|'bm lists/ls') __ops_r='list' ;;
    'bm lists/get'|'bm lists/show') __ops_r='get' ;;
    'bm lists/add') __ops_r='add' ;;
    'bm lists/edit') __ops_r='edit' ;;
    'bm lists/rm'|'bm lists/delete') __ops_r='rm' ;;
    'bm lists/links') __ops_r='links' ;;
    'bm tags/list'|'bm tags/ls') __ops_r='list' ;;
    'bm tags/get'|'bm tags/show') __ops_r='get' ;;
    'bm tags/add') __ops_r='add' ;;
    'bm tags/edit') __ops_r='edit' ;;
    'bm tags/rm'|'bm tags/delete') __ops_r='rm' ;;
    'bm tags/links') __ops_r='links' ;;
    'bm notes/add') __ops_r='add' ;;
    'bm notes/edit') __ops_r='edit' ;;
    'bm notes/rm'|'bm notes/delete') __ops_r='rm' ;;
    'bm bulk/add') __ops_r='add' ;;
    'bm bulk/edit') __ops_r='edit' ;;
    'bm bulk/rm') __ops_r='rm' ;;
    'bm trash/list'|'bm trash/ls') __ops_r='list' ;;
    'bm trash/restore') __ops_r='restore' ;;
    'bm trash/clear') __ops_r='clear' ;;
    'pipe/create') __ops_r='create' ;;
    'pipe/list'|'pipe/ls') __ops_r='list' ;;
    'pipe/status') __ops_r='status' ;;
    'pipe/programs') __ops_r='programs' ;;
    'pipe/start') __ops_r='start' ;;
    'pipe/pause') __ops_r='pause' ;;
    'pipe/shutdown'|'pipe/stop') __ops_r='shutdown' ;;
    'pipe/restart') __ops_r='restart' ;;
    'pipe/delete'|'pipe/rm') __ops_r='delete' ;;
    'pipe/clear') __ops_r='clear' ;;
    'pipe/program') __ops_r='program' ;;
    'pipe/diff') __ops_r='diff' ;;
    'pipe/validate') __ops_r='validate' ;;
    'pipe/copy') __ops_r='copy' ;;
    'pipe/config') __ops_r='config' ;;
    'pipe/connector') __ops_r='connector' ;;
    'pipe/ingest') __ops_r='ingest' ;;
    'pipe/watch') __ops_r='watch' ;;
    'pipe/snapshot') __ops_r='snapshot' ;;
    'pipe/query') __ops_r='query' ;;
    'pipe/shell') __ops_r='shell' ;;
    'pipe/stats') __ops_r='stats' ;;
    'pipe/logs') __ops_r='logs' ;;
    'pipe/metrics') __ops_r='metrics' ;;
    'pipe/events') __ops_r='events' ;;
    'pipe/txn') __ops_r='txn' ;;
    'pipe/clock') __ops_r='clock' ;;
    'pipe program/get') __ops_r='get' ;;
    'pipe program/set') __ops_r='set' ;;
    'pipe config/get') __ops_r='get' ;;
    'pipe config/set') __ops_r='set' ;;
    'pipe connector/start') __ops_r='start' ;;
    'pipe connector/pause') __ops_r='pause' ;;
    'pipe connector/stats') __ops_r='stats' ;;
    'pipe txn/start') __ops_r='start' ;;
    'pipe txn/commit') __ops_r='commit' ;;
    'pipe txn/status') __ops_r='status' ;;
    'hook/serve') __ops_r='serve' ;;
    'hook/verify') __ops_r='verify' ;;
    'hook/sign') __ops_r='sign' ;;
    'hook/replay') __ops_r='replay' ;;
    'hook/register') __ops_r='register' ;;
    'hook/update') __ops_r='update' ;;
    'hook/list'|'hook/ls') __ops_r='list' ;;
    'hook/rm') __ops_r='rm' ;;
    'hook/trigger') __ops_r='trigger' ;;
    'hook/deliveries') __ops_r='deliveries' ;;
    'hook/redeliver') __ops_r='redeliver' ;;
    'hook/dashboard') __ops_r='dashboard' ;;
    'serve/status') __ops_r='status' ;;
    'serve/stop') __ops_r='stop' ;;
    'serve/logs') __ops_r='logs' ;;
    'serve/reset') __ops_r='reset' ;;
    'serve/user') __ops_r='user' ;;
    'serve/token') __ops_r='token' ;;
    'serve/key') __ops_r='key' ;;
    'serve user/add') __ops_r='add' ;;
    'serve user/list'|'serve user/ls') __ops_r='list' ;;
    'serve user/update') __ops_r='update' ;;
    'serve user/rm') __ops_r='rm' ;;
    'serve token/create') __ops_r='create' ;;
    'serve token/list'|'serve token/ls') __ops_r='list' ;;
    'serve token/revoke') __ops_r='revoke' ;;
    'serve key/create') __ops_r='create' ;;
    'serve key/list'|'serve key/ls') __ops_r='list' ;;
    'serve key/revoke') __ops_r='revoke' ;;
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
    'bm') __ops_r='links lists tags notes search bulk trash import export check version' ;;
    'bm links') __ops_r='list get add edit rm open notes' ;;
    'bm lists') __ops_r='list get add edit rm links' ;;
    'bm tags') __ops_r='list get add edit rm links' ;;
    'bm notes') __ops_r='add edit rm' ;;
    'bm bulk') __ops_r='add edit rm' ;;
    'bm trash') __ops_r='list restore clear' ;;
    'pipe') __ops_r='create list status programs start pause shutdown restart delete clear program diff validate copy config connector ingest watch snapshot query shell stats logs metrics events txn clock' ;;
    'pipe program') __ops_r='get set' ;;
    'pipe config') __ops_r='get set' ;;
    'pipe connector') __ops_r='start pause stats' ;;
    'pipe txn') __ops_r='start commit status' ;;
    'hook') __ops_r='serve verify sign replay register update list rm trigger deliveries redeliver dashboard' ;;
    'serve') __ops_r='status stop logs reset user token key' ;;
    'serve user') __ops_r='add list update rm' ;;
    'serve token') __ops_r='create list revoke' ;;
    'serve key') __ops_r='create list revoke' ;;
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
    'bm links') __ops_r='--help -h' ;;
    'bm links list') __ops_r='--tag --list --visibility --broken --status --query -q --sort --order --limit --all --help -h' ;;
    'bm links get') __ops_r='--help -h' ;;
    'bm links add') __ops_r='--title --description --tag --list --visibility --check-disabled --create-missing --force --help -h' ;;
    'bm links edit') __ops_r='--title --description --tag --list --visibility --check-disabled --create-missing --url --add-tag --remove-tag --add-list --remove-list --check-enabled --help -h' ;;
    'bm links rm') __ops_r='--help -h' ;;
    'bm links open') __ops_r='--print --help -h' ;;
    'bm links notes') __ops_r='--help -h' ;;
    'bm lists') __ops_r='--help -h' ;;
    'bm lists list') __ops_r='--limit --all --sort --order --help -h' ;;
    'bm lists get') __ops_r='--help -h' ;;
    'bm lists add') __ops_r='--visibility --description --help -h' ;;
    'bm lists edit') __ops_r='--name --visibility --description --help -h' ;;
    'bm lists rm') __ops_r='--help -h' ;;
    'bm lists links') __ops_r='--limit --all --help -h' ;;
    'bm tags') __ops_r='--help -h' ;;
    'bm tags list') __ops_r='--limit --all --sort --order --help -h' ;;
    'bm tags get') __ops_r='--help -h' ;;
    'bm tags add') __ops_r='--visibility --help -h' ;;
    'bm tags edit') __ops_r='--name --visibility --help -h' ;;
    'bm tags rm') __ops_r='--help -h' ;;
    'bm tags links') __ops_r='--limit --all --help -h' ;;
    'bm notes') __ops_r='--help -h' ;;
    'bm notes add') __ops_r='--visibility --help -h' ;;
    'bm notes edit') __ops_r='--visibility --help -h' ;;
    'bm notes rm') __ops_r='--help -h' ;;
    'bm search') __ops_r='--type --title --description --url-only --tag --list --visibility --broken --sort --order --limit --all --help -h' ;;
    'bm bulk') __ops_r='--help -h' ;;
    'bm bulk add') __ops_r='--type --format --create-missing --force --help -h' ;;
    'bm bulk edit') __ops_r='--type --format --create-missing --help -h' ;;
    'bm bulk rm') __ops_r='--type --format --help -h' ;;
    'bm trash') __ops_r='--help -h' ;;
    'bm trash list') __ops_r='--type --help -h' ;;
    'bm trash restore') __ops_r='--help -h' ;;
    'bm trash clear') __ops_r='--type --help -h' ;;
    'bm import') __ops_r='--dry-run --folders --visibility --client-side --help -h' ;;
    'bm export') __ops_r='--format --output -o --help -h' ;;
    'bm check') __ops_r='--broken --id --help -h' ;;
    'bm version') __ops_r='--help -h' ;;
    'pipe') __ops_r='--help -h' ;;
    'pipe create') __ops_r='--description --workers --replace --start --no-wait --help -h' ;;
    'pipe list') __ops_r='--help -h' ;;
    'pipe status') __ops_r='--help -h' ;;
    'pipe programs') __ops_r='--help -h' ;;
    'pipe start') __ops_r='--no-wait --help -h' ;;
    'pipe pause') __ops_r='--no-wait --help -h' ;;
    'pipe shutdown') __ops_r='--no-wait --force --help -h' ;;
    'pipe restart') __ops_r='--no-wait --force --help -h' ;;
    'pipe delete') __ops_r='--help -h' ;;
    'pipe clear') __ops_r='--help -h' ;;
    'pipe program') __ops_r='--help -h' ;;
    'pipe program get') __ops_r='--help -h' ;;
    'pipe program set') __ops_r='--no-wait --help -h' ;;
    'pipe diff') __ops_r='--help -h' ;;
    'pipe validate') __ops_r='--help -h' ;;
    'pipe copy') __ops_r='--description --no-wait --help -h' ;;
    'pipe config') __ops_r='--help -h' ;;
    'pipe config get') __ops_r='--help -h' ;;
    'pipe config set') __ops_r='--help -h' ;;
    'pipe connector') __ops_r='--help -h' ;;
    'pipe connector start') __ops_r='--help -h' ;;
    'pipe connector pause') __ops_r='--help -h' ;;
    'pipe connector stats') __ops_r='--help -h' ;;
    'pipe ingest') __ops_r='--format --batch-size --skip --header --no-header --wait --force --help -h' ;;
    'pipe watch') __ops_r='--raw --snapshot --count --help -h' ;;
    'pipe snapshot') __ops_r='--help -h' ;;
    'pipe query') __ops_r='--format --output -o --help -h' ;;
    'pipe shell') __ops_r='--help -h' ;;
    'pipe stats') __ops_r='--watch --interval --help -h' ;;
    'pipe logs') __ops_r='--follow -f --help -h' ;;
    'pipe metrics') __ops_r='--help -h' ;;
    'pipe events') __ops_r='--all --help -h' ;;
    'pipe txn') __ops_r='--help -h' ;;
    'pipe txn start') __ops_r='--help -h' ;;
    'pipe txn commit') __ops_r='--wait --help -h' ;;
    'pipe txn status') __ops_r='--help -h' ;;
    'pipe clock') __ops_r='--advance --tick --help -h' ;;
    'hook') __ops_r='--help -h' ;;
    'hook serve') __ops_r='--port -p --host -a --path --secret-file --forward-to --forward-secret-file --events --store --no-store --max-body --retention --lenient --print-secret --help -h' ;;
    'hook verify') __ops_r='--signature --secret-file --lenient --help -h' ;;
    'hook sign') __ops_r='--secret-file --header --help -h' ;;
    'hook replay') __ops_r='--to --id --since --type --from --store --secret-file --failed --dry-run --help -h' ;;
    'hook register') __ops_r='--url --events --secret-file --description --help -h' ;;
    'hook update') __ops_r='--url --events --secret-file --description --help -h' ;;
    'hook list') __ops_r='--help -h' ;;
    'hook rm') __ops_r='--help -h' ;;
    'hook trigger') __ops_r='--data --data-file --list --help -h' ;;
    'hook deliveries') __ops_r='--status --webhook --event --type --limit --help -h' ;;
    'hook redeliver') __ops_r='--help -h' ;;
    'hook dashboard') __ops_r='--help -h' ;;
    'serve') __ops_r='--host --port --data-dir --rate-limit --retry-scale --pipelines-auth --feldera --output-case --pipeline-api --guest-access --no-link-check --no-metadata --fetch-policy --connector-root --query-timeout --query-max-rows --query-max-mb --demo --log-requests --detach -d --ready-file --max-connections --max-webhooks --max-pipelines --reset-store --help -h' ;;
    'serve status') __ops_r='--data-dir --help -h' ;;
    'serve stop') __ops_r='--data-dir --help -h' ;;
    'serve logs') __ops_r='--lines -n --follow -f --data-dir --help -h' ;;
    'serve reset') __ops_r='--data-dir --help -h' ;;
    'serve user') __ops_r='--help -h' ;;
    'serve user add') __ops_r='--name --email --token-name --data-dir --help -h' ;;
    'serve user list') __ops_r='--data-dir --help -h' ;;
    'serve user update') __ops_r='--name --email --data-dir --help -h' ;;
    'serve user rm') __ops_r='--data-dir --help -h' ;;
    'serve token') __ops_r='--help -h' ;;
    'serve token create') __ops_r='--user --system --private-access --name --data-dir --help -h' ;;
    'serve token list') __ops_r='--user --data-dir --help -h' ;;
    'serve token revoke') __ops_r='--data-dir --help -h' ;;
    'serve key') __ops_r='--help -h' ;;
    'serve key create') __ops_r='--name --data-dir --help -h' ;;
    'serve key list') __ops_r='--data-dir --help -h' ;;
    'serve key revoke') __ops_r='--data-dir --help -h' ;;
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
    'bm links|--help') __ops_r=''; return 0 ;;
    'bm links|-h') __ops_r=''; return 0 ;;
    'bm links list|--tag') __ops_r='d:tags'; return 0 ;;
    'bm links list|--list') __ops_r='-'; return 0 ;;
    'bm links list|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm links list|--broken') __ops_r=''; return 0 ;;
    'bm links list|--status') __ops_r='c:ok moved broken'; return 0 ;;
    'bm links list|--query') __ops_r='-'; return 0 ;;
    'bm links list|-q') __ops_r='-'; return 0 ;;
    'bm links list|--sort') __ops_r='-'; return 0 ;;
    'bm links list|--order') __ops_r='c:asc desc'; return 0 ;;
    'bm links list|--limit') __ops_r='-'; return 0 ;;
    'bm links list|--all') __ops_r=''; return 0 ;;
    'bm links list|--help') __ops_r=''; return 0 ;;
    'bm links list|-h') __ops_r=''; return 0 ;;
    'bm links get|--help') __ops_r=''; return 0 ;;
    'bm links get|-h') __ops_r=''; return 0 ;;
    'bm links add|--title') __ops_r='-'; return 0 ;;
    'bm links add|--description') __ops_r='-'; return 0 ;;
    'bm links add|--tag') __ops_r='d:tags'; return 0 ;;
    'bm links add|--list') __ops_r='-'; return 0 ;;
    'bm links add|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm links add|--check-disabled') __ops_r=''; return 0 ;;
    'bm links add|--create-missing') __ops_r=''; return 0 ;;
    'bm links add|--force') __ops_r=''; return 0 ;;
    'bm links add|--help') __ops_r=''; return 0 ;;
    'bm links add|-h') __ops_r=''; return 0 ;;
    'bm links edit|--title') __ops_r='-'; return 0 ;;
    'bm links edit|--description') __ops_r='-'; return 0 ;;
    'bm links edit|--tag') __ops_r='d:tags'; return 0 ;;
    'bm links edit|--list') __ops_r='-'; return 0 ;;
    'bm links edit|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm links edit|--check-disabled') __ops_r=''; return 0 ;;
    'bm links edit|--create-missing') __ops_r=''; return 0 ;;
    'bm links edit|--url') __ops_r='-'; return 0 ;;
    'bm links edit|--add-tag') __ops_r='d:tags'; return 0 ;;
    'bm links edit|--remove-tag') __ops_r='d:tags'; return 0 ;;
    'bm links edit|--add-list') __ops_r='-'; return 0 ;;
    'bm links edit|--remove-list') __ops_r='-'; return 0 ;;
    'bm links edit|--check-enabled') __ops_r=''; return 0 ;;
    'bm links edit|--help') __ops_r=''; return 0 ;;
    'bm links edit|-h') __ops_r=''; return 0 ;;
    'bm links rm|--help') __ops_r=''; return 0 ;;
    'bm links rm|-h') __ops_r=''; return 0 ;;
    'bm links open|--print') __ops_r=''; return 0 ;;
    'bm links open|--help') __ops_r=''; return 0 ;;
    'bm links open|-h') __ops_r=''; return 0 ;;
    'bm links notes|--help') __ops_r=''; return 0 ;;
    'bm links notes|-h') __ops_r=''; return 0 ;;
    'bm lists|--help') __ops_r=''; return 0 ;;
    'bm lists|-h') __ops_r=''; return 0 ;;
    'bm lists list|--limit') __ops_r='-'; return 0 ;;
    'bm lists list|--all') __ops_r=''; return 0 ;;
    'bm lists list|--sort') __ops_r='-'; return 0 ;;
    'bm lists list|--order') __ops_r='c:asc desc'; return 0 ;;
    'bm lists list|--help') __ops_r=''; return 0 ;;
    'bm lists list|-h') __ops_r=''; return 0 ;;
    'bm lists get|--help') __ops_r=''; return 0 ;;
    'bm lists get|-h') __ops_r=''; return 0 ;;
    'bm lists add|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm lists add|--description') __ops_r='-'; return 0 ;;
    'bm lists add|--help') __ops_r=''; return 0 ;;
    'bm lists add|-h') __ops_r=''; return 0 ;;
    'bm lists edit|--name') __ops_r='-'; return 0 ;;
    'bm lists edit|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm lists edit|--description') __ops_r='-'; return 0 ;;
    'bm lists edit|--help') __ops_r=''; return 0 ;;
    'bm lists edit|-h') __ops_r=''; return 0 ;;
    'bm lists rm|--help') __ops_r=''; return 0 ;;
    'bm lists rm|-h') __ops_r=''; return 0 ;;
    'bm lists links|--limit') __ops_r='-'; return 0 ;;
    'bm lists links|--all') __ops_r=''; return 0 ;;
    'bm lists links|--help') __ops_r=''; return 0 ;;
    'bm lists links|-h') __ops_r=''; return 0 ;;
    'bm tags|--help') __ops_r=''; return 0 ;;
    'bm tags|-h') __ops_r=''; return 0 ;;
    'bm tags list|--limit') __ops_r='-'; return 0 ;;
    'bm tags list|--all') __ops_r=''; return 0 ;;
    'bm tags list|--sort') __ops_r='-'; return 0 ;;
    'bm tags list|--order') __ops_r='c:asc desc'; return 0 ;;
    'bm tags list|--help') __ops_r=''; return 0 ;;
    'bm tags list|-h') __ops_r=''; return 0 ;;
    'bm tags get|--help') __ops_r=''; return 0 ;;
    'bm tags get|-h') __ops_r=''; return 0 ;;
    'bm tags add|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm tags add|--help') __ops_r=''; return 0 ;;
    'bm tags add|-h') __ops_r=''; return 0 ;;
    'bm tags edit|--name') __ops_r='-'; return 0 ;;
    'bm tags edit|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm tags edit|--help') __ops_r=''; return 0 ;;
    'bm tags edit|-h') __ops_r=''; return 0 ;;
    'bm tags rm|--help') __ops_r=''; return 0 ;;
    'bm tags rm|-h') __ops_r=''; return 0 ;;
    'bm tags links|--limit') __ops_r='-'; return 0 ;;
    'bm tags links|--all') __ops_r=''; return 0 ;;
    'bm tags links|--help') __ops_r=''; return 0 ;;
    'bm tags links|-h') __ops_r=''; return 0 ;;
    'bm notes|--help') __ops_r=''; return 0 ;;
    'bm notes|-h') __ops_r=''; return 0 ;;
    'bm notes add|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm notes add|--help') __ops_r=''; return 0 ;;
    'bm notes add|-h') __ops_r=''; return 0 ;;
    'bm notes edit|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm notes edit|--help') __ops_r=''; return 0 ;;
    'bm notes edit|-h') __ops_r=''; return 0 ;;
    'bm notes rm|--help') __ops_r=''; return 0 ;;
    'bm notes rm|-h') __ops_r=''; return 0 ;;
    'bm search|--type') __ops_r='-'; return 0 ;;
    'bm search|--title') __ops_r=''; return 0 ;;
    'bm search|--description') __ops_r=''; return 0 ;;
    'bm search|--url-only') __ops_r=''; return 0 ;;
    'bm search|--tag') __ops_r='d:tags'; return 0 ;;
    'bm search|--list') __ops_r='-'; return 0 ;;
    'bm search|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm search|--broken') __ops_r=''; return 0 ;;
    'bm search|--sort') __ops_r='-'; return 0 ;;
    'bm search|--order') __ops_r='c:asc desc'; return 0 ;;
    'bm search|--limit') __ops_r='-'; return 0 ;;
    'bm search|--all') __ops_r=''; return 0 ;;
    'bm search|--help') __ops_r=''; return 0 ;;
    'bm search|-h') __ops_r=''; return 0 ;;
    'bm bulk|--help') __ops_r=''; return 0 ;;
    'bm bulk|-h') __ops_r=''; return 0 ;;
    'bm bulk add|--type') __ops_r='-'; return 0 ;;
    'bm bulk add|--format') __ops_r='-'; return 0 ;;
    'bm bulk add|--create-missing') __ops_r=''; return 0 ;;
    'bm bulk add|--force') __ops_r=''; return 0 ;;
    'bm bulk add|--help') __ops_r=''; return 0 ;;
    'bm bulk add|-h') __ops_r=''; return 0 ;;
    'bm bulk edit|--type') __ops_r='-'; return 0 ;;
    'bm bulk edit|--format') __ops_r='-'; return 0 ;;
    'bm bulk edit|--create-missing') __ops_r=''; return 0 ;;
    'bm bulk edit|--help') __ops_r=''; return 0 ;;
    'bm bulk edit|-h') __ops_r=''; return 0 ;;
    'bm bulk rm|--type') __ops_r='-'; return 0 ;;
    'bm bulk rm|--format') __ops_r='-'; return 0 ;;
    'bm bulk rm|--help') __ops_r=''; return 0 ;;
    'bm bulk rm|-h') __ops_r=''; return 0 ;;
    'bm trash|--help') __ops_r=''; return 0 ;;
    'bm trash|-h') __ops_r=''; return 0 ;;
    'bm trash list|--type') __ops_r='-'; return 0 ;;
    'bm trash list|--help') __ops_r=''; return 0 ;;
    'bm trash list|-h') __ops_r=''; return 0 ;;
    'bm trash restore|--help') __ops_r=''; return 0 ;;
    'bm trash restore|-h') __ops_r=''; return 0 ;;
    'bm trash clear|--type') __ops_r='-'; return 0 ;;
    'bm trash clear|--help') __ops_r=''; return 0 ;;
    'bm trash clear|-h') __ops_r=''; return 0 ;;
    'bm import|--dry-run') __ops_r=''; return 0 ;;
    'bm import|--folders') __ops_r='-'; return 0 ;;
    'bm import|--visibility') __ops_r='c:public internal private 1 2 3'; return 0 ;;
    'bm import|--client-side') __ops_r=''; return 0 ;;
    'bm import|--help') __ops_r=''; return 0 ;;
    'bm import|-h') __ops_r=''; return 0 ;;
    'bm export|--format') __ops_r='-'; return 0 ;;
    'bm export|--output') __ops_r='f'; return 0 ;;
    'bm export|-o') __ops_r='f'; return 0 ;;
    'bm export|--help') __ops_r=''; return 0 ;;
    'bm export|-h') __ops_r=''; return 0 ;;
    'bm check|--broken') __ops_r=''; return 0 ;;
    'bm check|--id') __ops_r='-'; return 0 ;;
    'bm check|--help') __ops_r=''; return 0 ;;
    'bm check|-h') __ops_r=''; return 0 ;;
    'bm version|--help') __ops_r=''; return 0 ;;
    'bm version|-h') __ops_r=''; return 0 ;;
    'pipe|--help') __ops_r=''; return 0 ;;
    'pipe|-h') __ops_r=''; return 0 ;;
    'pipe create|--description') __ops_r='-'; return 0 ;;
    'pipe create|--workers') __ops_r='-'; return 0 ;;
    'pipe create|--replace') __ops_r=''; return 0 ;;
    'pipe create|--start') __ops_r=''; return 0 ;;
    'pipe create|--no-wait') __ops_r=''; return 0 ;;
    'pipe create|--help') __ops_r=''; return 0 ;;
    'pipe create|-h') __ops_r=''; return 0 ;;
    'pipe list|--help') __ops_r=''; return 0 ;;
    'pipe list|-h') __ops_r=''; return 0 ;;
    'pipe status|--help') __ops_r=''; return 0 ;;
    'pipe status|-h') __ops_r=''; return 0 ;;
    'pipe programs|--help') __ops_r=''; return 0 ;;
    'pipe programs|-h') __ops_r=''; return 0 ;;
    'pipe start|--no-wait') __ops_r=''; return 0 ;;
    'pipe start|--help') __ops_r=''; return 0 ;;
    'pipe start|-h') __ops_r=''; return 0 ;;
    'pipe pause|--no-wait') __ops_r=''; return 0 ;;
    'pipe pause|--help') __ops_r=''; return 0 ;;
    'pipe pause|-h') __ops_r=''; return 0 ;;
    'pipe shutdown|--no-wait') __ops_r=''; return 0 ;;
    'pipe shutdown|--force') __ops_r=''; return 0 ;;
    'pipe shutdown|--help') __ops_r=''; return 0 ;;
    'pipe shutdown|-h') __ops_r=''; return 0 ;;
    'pipe restart|--no-wait') __ops_r=''; return 0 ;;
    'pipe restart|--force') __ops_r=''; return 0 ;;
    'pipe restart|--help') __ops_r=''; return 0 ;;
    'pipe restart|-h') __ops_r=''; return 0 ;;
    'pipe delete|--help') __ops_r=''; return 0 ;;
    'pipe delete|-h') __ops_r=''; return 0 ;;
    'pipe clear|--help') __ops_r=''; return 0 ;;
    'pipe clear|-h') __ops_r=''; return 0 ;;
    'pipe program|--help') __ops_r=''; return 0 ;;
    'pipe program|-h') __ops_r=''; return 0 ;;
    'pipe program get|--help') __ops_r=''; return 0 ;;
    'pipe program get|-h') __ops_r=''; return 0 ;;
    'pipe program set|--no-wait') __ops_r=''; return 0 ;;
    'pipe program set|--help') __ops_r=''; return 0 ;;
    'pipe program set|-h') __ops_r=''; return 0 ;;
    'pipe diff|--help') __ops_r=''; return 0 ;;
    'pipe diff|-h') __ops_r=''; return 0 ;;
    'pipe validate|--help') __ops_r=''; return 0 ;;
    'pipe validate|-h') __ops_r=''; return 0 ;;
    'pipe copy|--description') __ops_r='-'; return 0 ;;
    'pipe copy|--no-wait') __ops_r=''; return 0 ;;
    'pipe copy|--help') __ops_r=''; return 0 ;;
    'pipe copy|-h') __ops_r=''; return 0 ;;
    'pipe config|--help') __ops_r=''; return 0 ;;
    'pipe config|-h') __ops_r=''; return 0 ;;
    'pipe config get|--help') __ops_r=''; return 0 ;;
    'pipe config get|-h') __ops_r=''; return 0 ;;
    'pipe config set|--help') __ops_r=''; return 0 ;;
    'pipe config set|-h') __ops_r=''; return 0 ;;
    'pipe connector|--help') __ops_r=''; return 0 ;;
    'pipe connector|-h') __ops_r=''; return 0 ;;
    'pipe connector start|--help') __ops_r=''; return 0 ;;
    'pipe connector start|-h') __ops_r=''; return 0 ;;
    'pipe connector pause|--help') __ops_r=''; return 0 ;;
    'pipe connector pause|-h') __ops_r=''; return 0 ;;
    'pipe connector stats|--help') __ops_r=''; return 0 ;;
    'pipe connector stats|-h') __ops_r=''; return 0 ;;
    'pipe ingest|--format') __ops_r='c:json csv parquet'; return 0 ;;
    'pipe ingest|--batch-size') __ops_r='-'; return 0 ;;
    'pipe ingest|--skip') __ops_r='-'; return 0 ;;
    'pipe ingest|--header') __ops_r=''; return 0 ;;
    'pipe ingest|--no-header') __ops_r=''; return 0 ;;
    'pipe ingest|--wait') __ops_r=''; return 0 ;;
    'pipe ingest|--force') __ops_r=''; return 0 ;;
    'pipe ingest|--help') __ops_r=''; return 0 ;;
    'pipe ingest|-h') __ops_r=''; return 0 ;;
    'pipe watch|--raw') __ops_r=''; return 0 ;;
    'pipe watch|--snapshot') __ops_r=''; return 0 ;;
    'pipe watch|--count') __ops_r='-'; return 0 ;;
    'pipe watch|--help') __ops_r=''; return 0 ;;
    'pipe watch|-h') __ops_r=''; return 0 ;;
    'pipe snapshot|--help') __ops_r=''; return 0 ;;
    'pipe snapshot|-h') __ops_r=''; return 0 ;;
    'pipe query|--format') __ops_r='c:rows arrow parquet hash'; return 0 ;;
    'pipe query|--output') __ops_r='f'; return 0 ;;
    'pipe query|-o') __ops_r='f'; return 0 ;;
    'pipe query|--help') __ops_r=''; return 0 ;;
    'pipe query|-h') __ops_r=''; return 0 ;;
    'pipe shell|--help') __ops_r=''; return 0 ;;
    'pipe shell|-h') __ops_r=''; return 0 ;;
    'pipe stats|--watch') __ops_r=''; return 0 ;;
    'pipe stats|--interval') __ops_r='-'; return 0 ;;
    'pipe stats|--help') __ops_r=''; return 0 ;;
    'pipe stats|-h') __ops_r=''; return 0 ;;
    'pipe logs|--follow') __ops_r=''; return 0 ;;
    'pipe logs|-f') __ops_r=''; return 0 ;;
    'pipe logs|--help') __ops_r=''; return 0 ;;
    'pipe logs|-h') __ops_r=''; return 0 ;;
    'pipe metrics|--help') __ops_r=''; return 0 ;;
    'pipe metrics|-h') __ops_r=''; return 0 ;;
    'pipe events|--all') __ops_r=''; return 0 ;;
    'pipe events|--help') __ops_r=''; return 0 ;;
    'pipe events|-h') __ops_r=''; return 0 ;;
    'pipe txn|--help') __ops_r=''; return 0 ;;
    'pipe txn|-h') __ops_r=''; return 0 ;;
    'pipe txn start|--help') __ops_r=''; return 0 ;;
    'pipe txn start|-h') __ops_r=''; return 0 ;;
    'pipe txn commit|--wait') __ops_r=''; return 0 ;;
    'pipe txn commit|--help') __ops_r=''; return 0 ;;
    'pipe txn commit|-h') __ops_r=''; return 0 ;;
    'pipe txn status|--help') __ops_r=''; return 0 ;;
    'pipe txn status|-h') __ops_r=''; return 0 ;;
    'pipe clock|--advance') __ops_r='-'; return 0 ;;
    'pipe clock|--tick') __ops_r=''; return 0 ;;
    'pipe clock|--help') __ops_r=''; return 0 ;;
    'pipe clock|-h') __ops_r=''; return 0 ;;
    'hook|--help') __ops_r=''; return 0 ;;
    'hook|-h') __ops_r=''; return 0 ;;
    'hook serve|--port') __ops_r='-'; return 0 ;;
    'hook serve|-p') __ops_r='-'; return 0 ;;
    'hook serve|--host') __ops_r='-'; return 0 ;;
    'hook serve|-a') __ops_r='-'; return 0 ;;
    'hook serve|--path') __ops_r='f'; return 0 ;;
    'hook serve|--secret-file') __ops_r='f'; return 0 ;;
    'hook serve|--forward-to') __ops_r='-'; return 0 ;;
    'hook serve|--forward-secret-file') __ops_r='f'; return 0 ;;
    'hook serve|--events') __ops_r='d:events'; return 0 ;;
    'hook serve|--store') __ops_r='f'; return 0 ;;
    'hook serve|--no-store') __ops_r=''; return 0 ;;
    'hook serve|--max-body') __ops_r='-'; return 0 ;;
    'hook serve|--retention') __ops_r='-'; return 0 ;;
    'hook serve|--lenient') __ops_r=''; return 0 ;;
    'hook serve|--print-secret') __ops_r=''; return 0 ;;
    'hook serve|--help') __ops_r=''; return 0 ;;
    'hook serve|-h') __ops_r=''; return 0 ;;
    'hook verify|--signature') __ops_r='-'; return 0 ;;
    'hook verify|--secret-file') __ops_r='f'; return 0 ;;
    'hook verify|--lenient') __ops_r=''; return 0 ;;
    'hook verify|--help') __ops_r=''; return 0 ;;
    'hook verify|-h') __ops_r=''; return 0 ;;
    'hook sign|--secret-file') __ops_r='f'; return 0 ;;
    'hook sign|--header') __ops_r=''; return 0 ;;
    'hook sign|--help') __ops_r=''; return 0 ;;
    'hook sign|-h') __ops_r=''; return 0 ;;
    'hook replay|--to') __ops_r='-'; return 0 ;;
    'hook replay|--id') __ops_r='-'; return 0 ;;
    'hook replay|--since') __ops_r='-'; return 0 ;;
    'hook replay|--type') __ops_r='d:events'; return 0 ;;
    'hook replay|--from') __ops_r='f'; return 0 ;;
    'hook replay|--store') __ops_r='f'; return 0 ;;
    'hook replay|--secret-file') __ops_r='f'; return 0 ;;
    'hook replay|--failed') __ops_r=''; return 0 ;;
    'hook replay|--dry-run') __ops_r=''; return 0 ;;
    'hook replay|--help') __ops_r=''; return 0 ;;
    'hook replay|-h') __ops_r=''; return 0 ;;
    'hook register|--url') __ops_r='-'; return 0 ;;
    'hook register|--events') __ops_r='d:events'; return 0 ;;
    'hook register|--secret-file') __ops_r='f'; return 0 ;;
    'hook register|--description') __ops_r='-'; return 0 ;;
    'hook register|--help') __ops_r=''; return 0 ;;
    'hook register|-h') __ops_r=''; return 0 ;;
    'hook update|--url') __ops_r='-'; return 0 ;;
    'hook update|--events') __ops_r='d:events'; return 0 ;;
    'hook update|--secret-file') __ops_r='f'; return 0 ;;
    'hook update|--description') __ops_r='-'; return 0 ;;
    'hook update|--help') __ops_r=''; return 0 ;;
    'hook update|-h') __ops_r=''; return 0 ;;
    'hook list|--help') __ops_r=''; return 0 ;;
    'hook list|-h') __ops_r=''; return 0 ;;
    'hook rm|--help') __ops_r=''; return 0 ;;
    'hook rm|-h') __ops_r=''; return 0 ;;
    'hook trigger|--data') __ops_r='-'; return 0 ;;
    'hook trigger|--data-file') __ops_r='f'; return 0 ;;
    'hook trigger|--list') __ops_r=''; return 0 ;;
    'hook trigger|--help') __ops_r=''; return 0 ;;
    'hook trigger|-h') __ops_r=''; return 0 ;;
    'hook deliveries|--status') __ops_r='-'; return 0 ;;
    'hook deliveries|--webhook') __ops_r='-'; return 0 ;;
    'hook deliveries|--event') __ops_r='-'; return 0 ;;
    'hook deliveries|--type') __ops_r='d:events'; return 0 ;;
    'hook deliveries|--limit') __ops_r='-'; return 0 ;;
    'hook deliveries|--help') __ops_r=''; return 0 ;;
    'hook deliveries|-h') __ops_r=''; return 0 ;;
    'hook redeliver|--help') __ops_r=''; return 0 ;;
    'hook redeliver|-h') __ops_r=''; return 0 ;;
    'hook dashboard|--help') __ops_r=''; return 0 ;;
    'hook dashboard|-h') __ops_r=''; return 0 ;;
    'serve|--host') __ops_r='-'; return 0 ;;
    'serve|--port') __ops_r='-'; return 0 ;;
    'serve|--data-dir') __ops_r='D'; return 0 ;;
    'serve|--rate-limit') __ops_r='-'; return 0 ;;
    'serve|--retry-scale') __ops_r='-'; return 0 ;;
    'serve|--pipelines-auth') __ops_r=''; return 0 ;;
    'serve|--feldera') __ops_r='c:auto current v0.24'; return 0 ;;
    'serve|--output-case') __ops_r='c:upper lower'; return 0 ;;
    'serve|--pipeline-api') __ops_r='c:v0.24 current'; return 0 ;;
    'serve|--guest-access') __ops_r=''; return 0 ;;
    'serve|--no-link-check') __ops_r=''; return 0 ;;
    'serve|--no-metadata') __ops_r=''; return 0 ;;
    'serve|--fetch-policy') __ops_r='c:public any'; return 0 ;;
    'serve|--connector-root') __ops_r='D'; return 0 ;;
    'serve|--query-timeout') __ops_r='-'; return 0 ;;
    'serve|--query-max-rows') __ops_r='-'; return 0 ;;
    'serve|--query-max-mb') __ops_r='-'; return 0 ;;
    'serve|--demo') __ops_r=''; return 0 ;;
    'serve|--log-requests') __ops_r=''; return 0 ;;
    'serve|--detach') __ops_r=''; return 0 ;;
    'serve|-d') __ops_r=''; return 0 ;;
    'serve|--ready-file') __ops_r='f'; return 0 ;;
    'serve|--max-connections') __ops_r='-'; return 0 ;;
    'serve|--max-webhooks') __ops_r='-'; return 0 ;;
    'serve|--max-pipelines') __ops_r='-'; return 0 ;;
    'serve|--reset-store') __ops_r='c:bookmarks pipelines notifications'; return 0 ;;
    'serve|--help') __ops_r=''; return 0 ;;
    'serve|-h') __ops_r=''; return 0 ;;
    'serve status|--data-dir') __ops_r='D'; return 0 ;;
    'serve status|--help') __ops_r=''; return 0 ;;
    'serve status|-h') __ops_r=''; return 0 ;;
    'serve stop|--data-dir') __ops_r='D'; return 0 ;;
    'serve stop|--help') __ops_r=''; return 0 ;;
    'serve stop|-h') __ops_r=''; return 0 ;;
    'serve logs|--lines') __ops_r='-'; return 0 ;;
    'serve logs|-n') __ops_r='-'; return 0 ;;
    'serve logs|--follow') __ops_r=''; return 0 ;;
    'serve logs|-f') __ops_r=''; return 0 ;;
    'serve logs|--data-dir') __ops_r='D'; return 0 ;;
    'serve logs|--help') __ops_r=''; return 0 ;;
    'serve logs|-h') __ops_r=''; return 0 ;;
    'serve reset|--data-dir') __ops_r='D'; return 0 ;;
    'serve reset|--help') __ops_r=''; return 0 ;;
    'serve reset|-h') __ops_r=''; return 0 ;;
    'serve user|--help') __ops_r=''; return 0 ;;
    'serve user|-h') __ops_r=''; return 0 ;;
    'serve user add|--name') __ops_r='-'; return 0 ;;
    'serve user add|--email') __ops_r='-'; return 0 ;;
    'serve user add|--token-name') __ops_r='-'; return 0 ;;
    'serve user add|--data-dir') __ops_r='D'; return 0 ;;
    'serve user add|--help') __ops_r=''; return 0 ;;
    'serve user add|-h') __ops_r=''; return 0 ;;
    'serve user list|--data-dir') __ops_r='D'; return 0 ;;
    'serve user list|--help') __ops_r=''; return 0 ;;
    'serve user list|-h') __ops_r=''; return 0 ;;
    'serve user update|--name') __ops_r='-'; return 0 ;;
    'serve user update|--email') __ops_r='-'; return 0 ;;
    'serve user update|--data-dir') __ops_r='D'; return 0 ;;
    'serve user update|--help') __ops_r=''; return 0 ;;
    'serve user update|-h') __ops_r=''; return 0 ;;
    'serve user rm|--data-dir') __ops_r='D'; return 0 ;;
    'serve user rm|--help') __ops_r=''; return 0 ;;
    'serve user rm|-h') __ops_r=''; return 0 ;;
    'serve token|--help') __ops_r=''; return 0 ;;
    'serve token|-h') __ops_r=''; return 0 ;;
    'serve token create|--user') __ops_r='-'; return 0 ;;
    'serve token create|--system') __ops_r=''; return 0 ;;
    'serve token create|--private-access') __ops_r=''; return 0 ;;
    'serve token create|--name') __ops_r='-'; return 0 ;;
    'serve token create|--data-dir') __ops_r='D'; return 0 ;;
    'serve token create|--help') __ops_r=''; return 0 ;;
    'serve token create|-h') __ops_r=''; return 0 ;;
    'serve token list|--user') __ops_r='-'; return 0 ;;
    'serve token list|--data-dir') __ops_r='D'; return 0 ;;
    'serve token list|--help') __ops_r=''; return 0 ;;
    'serve token list|-h') __ops_r=''; return 0 ;;
    'serve token revoke|--data-dir') __ops_r='D'; return 0 ;;
    'serve token revoke|--help') __ops_r=''; return 0 ;;
    'serve token revoke|-h') __ops_r=''; return 0 ;;
    'serve key|--help') __ops_r=''; return 0 ;;
    'serve key|-h') __ops_r=''; return 0 ;;
    'serve key create|--name') __ops_r='-'; return 0 ;;
    'serve key create|--data-dir') __ops_r='D'; return 0 ;;
    'serve key create|--help') __ops_r=''; return 0 ;;
    'serve key create|-h') __ops_r=''; return 0 ;;
    'serve key list|--data-dir') __ops_r='D'; return 0 ;;
    'serve key list|--help') __ops_r=''; return 0 ;;
    'serve key list|-h') __ops_r=''; return 0 ;;
    'serve key revoke|--data-dir') __ops_r='D'; return 0 ;;
    'serve key revoke|--help') __ops_r=''; return 0 ;;
    'serve key revoke|-h') __ops_r=''; return 0 ;;
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
    'bm links get') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm links add') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm links edit') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm links rm') case "$2" in 0) __ops_r='-' ;; *) [ "$2" -ge 0 ] && __ops_r='-' ;; esac ;;
    'bm links open') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm links notes') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm lists get') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm lists add') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm lists edit') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm lists rm') case "$2" in 0) __ops_r='-' ;; *) [ "$2" -ge 0 ] && __ops_r='-' ;; esac ;;
    'bm lists links') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm tags get') case "$2" in 0) __ops_r='d:tags' ;; esac ;;
    'bm tags add') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm tags edit') case "$2" in 0) __ops_r='d:tags' ;; esac ;;
    'bm tags rm') case "$2" in 0) __ops_r='d:tags' ;; *) [ "$2" -ge 0 ] && __ops_r='d:tags' ;; esac ;;
    'bm tags links') case "$2" in 0) __ops_r='d:tags' ;; esac ;;
    'bm notes add') case "$2" in 0) __ops_r='-' ;; 1) __ops_r='-' ;; esac ;;
    'bm notes edit') case "$2" in 0) __ops_r='-' ;; 1) __ops_r='-' ;; esac ;;
    'bm notes rm') case "$2" in 0) __ops_r='-' ;; *) [ "$2" -ge 0 ] && __ops_r='-' ;; esac ;;
    'bm search') case "$2" in 0) __ops_r='-' ;; esac ;;
    'bm bulk add') case "$2" in 0) __ops_r='f' ;; esac ;;
    'bm bulk edit') case "$2" in 0) __ops_r='f' ;; esac ;;
    'bm bulk rm') case "$2" in 0) __ops_r='f' ;; esac ;;
    'bm trash restore') case "$2" in 0) __ops_r='-' ;; 1) __ops_r='-' ;; *) [ "$2" -ge 1 ] && __ops_r='-' ;; esac ;;
    'bm import') case "$2" in 0) __ops_r='f' ;; esac ;;
    'bm check') case "$2" in 0) __ops_r='-' ;; esac ;;
    'pipe create') case "$2" in 0) __ops_r='-' ;; 1) __ops_r='f' ;; esac ;;
    'pipe status') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe start') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe pause') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe shutdown') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe restart') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe delete') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe clear') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe program get') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe program set') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='f' ;; esac ;;
    'pipe diff') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='f' ;; esac ;;
    'pipe validate') case "$2" in 0) __ops_r='f' ;; esac ;;
    'pipe copy') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='-' ;; esac ;;
    'pipe config get') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='-' ;; esac ;;
    'pipe config set') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='-' ;; 2) __ops_r='-' ;; esac ;;
    'pipe connector start') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='d:relations:0' ;; 2) __ops_r='-' ;; esac ;;
    'pipe connector pause') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='d:relations:0' ;; 2) __ops_r='-' ;; esac ;;
    'pipe connector stats') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='d:relations:0' ;; 2) __ops_r='-' ;; esac ;;
    'pipe ingest') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='d:relations:0' ;; 2) __ops_r='f' ;; esac ;;
    'pipe watch') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='d:relations:0' ;; *) [ "$2" -ge 1 ] && __ops_r='d:relations:0' ;; esac ;;
    'pipe snapshot') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='d:relations:0' ;; esac ;;
    'pipe query') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='-' ;; esac ;;
    'pipe shell') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe stats') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe logs') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe metrics') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe events') case "$2" in 0) __ops_r='d:pipelines' ;; 1) __ops_r='-' ;; esac ;;
    'pipe txn start') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe txn commit') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe txn status') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'pipe clock') case "$2" in 0) __ops_r='d:pipelines' ;; esac ;;
    'hook verify') case "$2" in 0) __ops_r='f' ;; esac ;;
    'hook sign') case "$2" in 0) __ops_r='f' ;; esac ;;
    'hook register') case "$2" in 0) __ops_r='-' ;; esac ;;
    'hook update') case "$2" in 0) __ops_r='-' ;; esac ;;
    'hook rm') case "$2" in 0) __ops_r='-' ;; *) [ "$2" -ge 0 ] && __ops_r='-' ;; esac ;;
    'hook trigger') case "$2" in 0) __ops_r='d:events' ;; esac ;;
    'hook deliveries') case "$2" in 0) __ops_r='-' ;; esac ;;
    'hook redeliver') case "$2" in 0) __ops_r='-' ;; *) [ "$2" -ge 0 ] && __ops_r='-' ;; esac ;;
    'serve user update') case "$2" in 0) __ops_r='-' ;; esac ;;
    'serve user rm') case "$2" in 0) __ops_r='-' ;; esac ;;
    'serve token revoke') case "$2" in 0) __ops_r='-' ;; esac ;;
    'serve key revoke') case "$2" in 0) __ops_r='-' ;; esac ;;
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
      # table and view names are looked up ignoring case: "rev" completes REVENUE
      local restore name
      restore="$(shopt -p nocasematch)"
      shopt -s nocasematch
      for name in $names; do [[ "$name" == "$cur"* ]] && COMPREPLY+=("$name"); done
      $restore ;;
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
