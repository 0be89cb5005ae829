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
        case 'bm/links' 'bm/link'
            echo 'links'
        case 'bm/lists' 'bm/list'
            echo 'lists'
        case 'bm/tags' 'bm/tag'
            echo 'tags'
        case 'bm/notes' 'bm/note'
            echo 'notes'
        case 'bm/search'
            echo 'search'
        case 'bm/bulk'
            echo 'bulk'
        case 'bm/trash'
            echo 'trash'
        case 'bm/import'
            echo 'import'
        case 'bm/export'
            echo 'export'
        case 'bm/check'
            echo 'check'
        case 'bm/version'
            echo 'version'
        case 'bm links/list' 'bm links/ls'
            echo 'list'
        case 'bm links/get' 'bm links/show'
            echo 'get'
        case 'bm links/add'
            echo 'add'
        case 'bm links/edit'
            echo 'edit'
        case 'bm links/rm' 'bm links/delete'
            echo 'rm'
        case 'bm links/open'
            echo 'open'
        case 'bm links/notes'
            echo 'notes'
        case 'bm lists/list' 'bm lists/ls'
            echo 'list'
        case 'bm lists/get' 'bm lists/show'
            echo 'get'
        case 'bm lists/add'
            echo 'add'
        case 'bm lists/edit'
            echo 'edit'
        case 'bm lists/rm' 'bm lists/delete'
            echo 'rm'
        case 'bm lists/links'
            echo 'links'
        case 'bm tags/list' 'bm tags/ls'
            echo 'list'
        case 'bm tags/get' 'bm tags/show'
            echo 'get'
        case 'bm tags/add'
            echo 'add'
        case 'bm tags/edit'
            echo 'edit'
        case 'bm tags/rm' 'bm tags/delete'
            echo 'rm'
        case 'bm tags/links'
            echo 'links'
        case 'bm notes/add'
            echo 'add'
        case 'bm notes/edit'
            echo 'edit'
        case 'bm notes/rm' 'bm notes/delete'
            echo 'rm'
        case 'bm bulk/add'
            echo 'add'
        case 'bm bulk/edit'
            echo 'edit'
        case 'bm bulk/rm'
            echo 'rm'
        case 'bm trash/list' 'bm trash/ls'
            echo 'list'
        case 'bm trash/restore'
            echo 'restore'
        case 'bm trash/clear'
            echo 'clear'
        case 'pipe/create'
            echo 'create'
        case 'pipe/list' 'pipe/ls'
            echo 'list'
        case 'pipe/status'
            echo 'status'
        case 'pipe/programs'
            echo 'programs'
        case 'pipe/start'
            echo 'start'
        case 'pipe/pause'
            echo 'pause'
        case 'pipe/shutdown' 'pipe/stop'
            echo 'shutdown'
        case 'pipe/restart'
            echo 'restart'
        case 'pipe/delete' 'pipe/rm'
            echo 'delete'
        case 'pipe/clear'
            echo 'clear'
        case 'pipe/program'
            echo 'program'
        case 'pipe/diff'
            echo 'diff'
        case 'pipe/validate'
            echo 'validate'
        case 'pipe/copy'
            echo 'copy'
        case 'pipe/config'
            echo 'config'
        case 'pipe/connector'
            echo 'connector'
        case 'pipe/ingest'
            echo 'ingest'
        case 'pipe/watch'
            echo 'watch'
        case 'pipe/snapshot'
            echo 'snapshot'
        case 'pipe/query'
            echo 'query'
        case 'pipe/shell'
            echo 'shell'
        case 'pipe/stats'
            echo 'stats'
        case 'pipe/logs'
            echo 'logs'
        case 'pipe/metrics'
            echo 'metrics'
        case 'pipe/events'
            echo 'events'
        case 'pipe/txn'
            echo 'txn'
        case 'pipe/clock'
            echo 'clock'
        case 'pipe program/get'
            echo 'get'
        case 'pipe program/set'
            echo 'set'
        case 'pipe config/get'
            echo 'get'
        case 'pipe config/set'
            echo 'set'
        case 'pipe connector/start'
            echo 'start'
        case 'pipe connector/pause'
            echo 'pause'
        case 'pipe connector/stats'
            echo 'stats'
        case 'pipe txn/start'
            echo 'start'
        case 'pipe txn/commit'
            echo 'commit'
        case 'pipe txn/status'
            echo 'status'
        case 'hook/serve'
            echo 'serve'
        case 'hook/verify'
            echo 'verify'
        case 'hook/sign'
            echo 'sign'
        case 'hook/replay'
            echo 'replay'
        case 'hook/register'
            echo 'register'
        case 'hook/update'
            echo 'update'
        case 'hook/list' 'hook/ls'
            echo 'list'
        case 'hook/rm'
            echo 'rm'
        case 'hook/trigger'
            echo 'trigger'
        case 'hook/deliveries'
            echo 'deliveries'
        case 'hook/redeliver'
            echo 'redeliver'
        case 'hook/dashboard'
            echo 'dashboard'
        case 'serve/status'
            echo 'status'
        case 'serve/stop'
            echo 'stop'
        case 'serve/logs'
            echo 'logs'
        case 'serve/reset'
            echo 'reset'
        case 'serve/user'
            echo 'user'
        case 'serve/token'
            echo 'token'
        case 'serve/key'
            echo 'key'
        case 'serve user/add'
            echo 'add'
        case 'serve user/list' 'serve user/ls'
            echo 'list'
        case 'serve user/update'
            echo 'update'
        case 'serve user/rm'
            echo 'rm'
        case 'serve token/create'
            echo 'create'
        case 'serve token/list' 'serve token/ls'
            echo 'list'
        case 'serve token/revoke'
            echo 'revoke'
        case 'serve key/create'
            echo 'create'
        case 'serve key/list' 'serve key/ls'
            echo 'list'
        case 'serve key/revoke'
            echo 'revoke'
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
        case 'bm'
            printf '%s\n' 'links	Links (bookmarks): list, get, add, edit, rm, open, notes' 'lists	Lists: list, get, add, edit, rm, links' 'tags	Tags: list, get, add, edit, rm, links' 'notes	Notes on links: add, edit, rm (list them with `ops bm links notes ID`)' 'search	Search your links (URL, title, description; filters), or tags or lists by name' 'bulk	Add, edit or delete many items from a file or stdin (JSON array, NDJSON or CSV)' 'trash	Deleted links, lists, tags and notes: list, restore, clear' 'import	Import a Netscape bookmark file (or an `ops bm export` JSON file); "-" reads stdin' 'export	Export every link you can see: Netscape HTML (browsers, LinkAce), JSON or CSV' 'check	Run the link-health check and show moved and broken links; with a URL, is it saved already' 'version	The server\'s API version and what it offers (import endpoint, health check)'
        case 'bm links'
            printf '%s\n' 'list	List links, newest first; filters use the search API (your own links)' 'get	Show one link with its tags and lists' 'add	Add a link (warns about a URL that is already saved)' 'edit	Change a link (only the given fields; --tag/--list replace, --add-*/--remove-* adjust)' 'rm	Move links to the trash (asks first; --yes in scripts)' 'open	Open a link in the browser ($BROWSER, else the system opener)' 'notes	List the notes of a link'
        case 'bm lists'
            printf '%s\n' 'list	List lists' 'get	Show a list (by id or name)' 'add	Create a list' 'edit	Change a list (by id or name)' 'rm	Move lists to the trash (asks first; --yes in scripts)' 'links	Links in a list (by id or name)'
        case 'bm tags'
            printf '%s\n' 'list	List tags' 'get	Show a tag (by id or name)' 'add	Create a tag' 'edit	Change a tag (by id or name)' 'rm	Move tags to the trash (asks first; --yes in scripts)' 'links	Links with a tag (by id or name)'
        case 'bm notes'
            printf '%s\n' 'add	Add a note to a link (text from the argument, or stdin with "-")' 'edit	Replace the text of a note' 'rm	Move notes to the trash (asks first; --yes in scripts)'
        case 'bm bulk'
            printf '%s\n' 'add	Create items, one result per item; URLs already saved are skipped' 'edit	Update items by id (each record: id plus the fields to change)' 'rm	Move items to the trash by id (asks first; --yes in scripts)'
        case 'bm trash'
            printf '%s\n' 'list	What is in the trash' 'restore	Restore items (type: link, list, tag or note)' 'clear	Delete the trash for good (asks first; --yes in scripts)'
        case 'pipe'
            printf '%s\n' 'create	Create or replace a pipeline from a SQL file (or stdin) and wait for it to compile' 'list	List the pipelines with their program and deployment state' 'status	Program and deployment state of a pipeline, its errors, and since when' 'programs	List the programs (GET /v0/programs, or derived from the pipelines on servers without it)' 'start	Start a pipeline and wait until it is Running (--timeout SECONDS; exit 8 when it runs out)' 'pause	Pause a pipeline (deploys it paused when it is shut down) and wait until Paused' 'shutdown	Shut a pipeline down (today\'s Feldera: stop) and wait until it is stopped; its state is lost' 'restart	Stop a pipeline, waiting until it is stopped, then start it and wait until it is Running' 'delete	Delete a stopped pipeline (asks for confirmation; --yes in scripts)' 'clear	Delete a stopped pipeline\'s stored state (today\'s /clear; asks for confirmation, --yes in scripts)' 'program	Read or replace the SQL program of a pipeline' 'diff	Compare the stored SQL program with a file: a unified diff; exit 1 when they differ, 0 when equal' 'validate	Compile a SQL program on the server without creating a pipeline; exit 1 with its errors' 'copy	Copy a pipeline\'s definition (program, description, runtime and program config; not its state) to a new pipeline' 'config	Read or change a pipeline\'s runtime_config (workers, resources, storage, ...)' 'connector	Input connectors: pause one (it stops reading; what it read stays queued), start it again, see its stats' 'ingest	Send rows or changes to a table: NDJSON, a JSON array, CSV, or a Parquet file; "-" or no file reads stdin' 'watch	Stream the changes of views: one NDJSON line per change, {"view":..,"insert"|"delete":row}' 'snapshot	Print the current contents of a view (a table, or --json)' 'query	Run an ad-hoc SELECT over the materialized tables and views of a running pipeline (a table, or --json), or an INSERT INTO one of its tables (prints the count)' 'shell	An interactive SQL shell over a running pipeline (statements end with ";"; \\q to quit)' 'stats	Statistics of a running pipeline (a table, or --json); --watch to refresh' 'logs	Print the log of a pipeline; --follow to keep printing new lines' 'metrics	Metrics of a running pipeline: the Prometheus text, or Feldera\'s JSON form with --json' 'events	A pipeline\'s monitor events (its statuses over time), newest first; or one event by id or `latest`' 'txn	Transactions: input held until the commit applies it all as one step' 'clock	The NOW() clock of a pipeline driven over HTTP (dev_tweaks.now_http_driven): print it, or move it forward first'
        case 'pipe program'
            printf '%s\n' 'get	Print the stored SQL program byte for byte (--json: {name, program_code})' 'set	Replace the SQL program of a stopped pipeline and wait for it to compile'
        case 'pipe config'
            printf '%s\n' 'get	Print the runtime_config as JSON, or the value of one KEY (a dotted path)' 'set	Set one KEY of the runtime_config of a stopped pipeline (VALUE: JSON, else a string)'
        case 'pipe connector'
            printf '%s\n' 'start	Start (resume) an input connector: it reads again, its queued data is applied' 'pause	Pause an input connector: it stops reading, what it read and has not applied stays queued' 'stats	An input connector\'s status and figures (paused, records, bytes, errors)'
        case 'pipe txn'
            printf '%s\n' 'start	Open a transaction and print its id (--json: {transaction_id})' 'commit	Commit the open transaction; --wait returns once it is applied (--timeout SECONDS; exit 8 when it runs out)' 'status	The pipeline\'s transaction: status, id, records held and for how long'
        case 'hook'
            printf '%s\n' 'serve	Receive webhooks: verify signatures, de-duplicate, print events, forward, keep them for replay' 'verify	Check a signature against a payload (FILE or - for stdin); exit 0 valid, 1 invalid, 2 usage' 'sign	Print the x-signature of a payload (FILE or - for stdin)' 'replay	Re-send stored events, signed, to a URL; or --failed: redeliver the service\'s failed deliveries' 'register	Register a receiver URL for event types with the notification service' 'update	Change a registration: URL, event types, secret or description' 'list	List the registered webhooks' 'rm	Delete webhook registrations (asks first; --yes in scripts)' 'trigger	Emit an event through the notification service (sample payload unless --data)' 'deliveries	Deliveries, failed first (or one delivery with all its attempts)' 'redeliver	Queue deliveries again (a fresh series of attempts)' 'dashboard	Print a one-time link to the delivery dashboard of the notification service (good for one use within a minute)'
        case 'serve'
            printf '%s\n' 'status	Is a server running on the data dir: its pid, URL and each service (exit 0 running, 1 not well, 3 not running)' 'stop	Stop the server on the data dir gracefully (SIGTERM) and wait until it stopped' 'logs	Print the log of the server started with --detach; --follow keeps printing until it stops' 'reset	Empty the data dir (every service\'s data) after a confirmation; refused while a server runs on it' 'user	Users of the local bookmark service' 'token	API tokens of the local bookmark service' 'key	API keys of the local notification service'
        case 'serve user'
            printf '%s\n' 'add	Add a user and a first API token for it (the token is shown once)' 'list	List the users' 'update	Change a user\'s name or email (webhooks get user.updated)' 'rm	Remove a user (id or email) with all their links, lists, tags, notes and tokens'
        case 'serve token'
            printf '%s\n' 'create	Create an API token (shown once): for a user, or a system token' 'list	List tokens (never their values)' 'revoke	Revoke a token: it stops working at once'
        case 'serve key'
            printf '%s\n' 'create	Create an API key (its value is shown only now)' 'list	List the keys: id, name, a masked prefix, created and last used (never their values)' 'revoke	Revoke a key: it stops working at once, also on a running server'
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
        case 'bm links'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm links list'
            printf '%s\n' '--tag	with this tag (repeatable or comma-separated; any of them)' '--list	in this list (repeatable or comma-separated; any of them)' '--visibility	public, internal or private (or 1, 2, 3)' '--broken	only moved or broken links' '--status	only ok, moved or broken links' '--query	URL, title or description contains this' '-q	URL, title or description contains this' '--sort	id, url, title, created_at, updated_at, visibility, status, random' '--order	asc or desc (default desc)' '--limit	at most this many (default 25)' '--all	every item, following pages (rows print as pages arrive)' '--help	show help' '-h	show help'
        case 'bm links get'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm links add'
            printf '%s\n' '--title	title (fetched from the page when omitted on add)' '--description	description' '--tag	tag by name (repeatable or comma-separated)' '--list	list by name (repeatable or comma-separated)' '--visibility	public, internal or private (or 1, 2, 3)' '--check-disabled	exclude the link from health checks' '--create-missing	create tags and lists that do not exist yet' '--force	skip the duplicate check' '--help	show help' '-h	show help'
        case 'bm links edit'
            printf '%s\n' '--title	title (fetched from the page when omitted on add)' '--description	description' '--tag	tag by name (repeatable or comma-separated)' '--list	list by name (repeatable or comma-separated)' '--visibility	public, internal or private (or 1, 2, 3)' '--check-disabled	exclude the link from health checks' '--create-missing	create tags and lists that do not exist yet' '--url	new URL' '--add-tag	add a tag (repeatable)' '--remove-tag	remove a tag (repeatable)' '--add-list	add to a list (repeatable)' '--remove-list	remove from a list (repeatable)' '--check-enabled	include the link in health checks again' '--help	show help' '-h	show help'
        case 'bm links rm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm links open'
            printf '%s\n' '--print	print the URL instead' '--help	show help' '-h	show help'
        case 'bm links notes'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm lists'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm lists list'
            printf '%s\n' '--limit	at most this many (default 25)' '--all	every item, following pages (rows print as pages arrive)' '--sort	id, name, description, visibility, created_at, updated_at, random' '--order	asc or desc (default desc)' '--help	show help' '-h	show help'
        case 'bm lists get'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm lists add'
            printf '%s\n' '--visibility	public, internal or private (or 1, 2, 3)' '--description	description' '--help	show help' '-h	show help'
        case 'bm lists edit'
            printf '%s\n' '--name	new name' '--visibility	public, internal or private (or 1, 2, 3)' '--description	description ("" clears it)' '--help	show help' '-h	show help'
        case 'bm lists rm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm lists links'
            printf '%s\n' '--limit	at most this many (default 25)' '--all	every item, following pages (rows print as pages arrive)' '--help	show help' '-h	show help'
        case 'bm tags'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm tags list'
            printf '%s\n' '--limit	at most this many (default 25)' '--all	every item, following pages (rows print as pages arrive)' '--sort	id, name, visibility, created_at, updated_at, random' '--order	asc or desc (default desc)' '--help	show help' '-h	show help'
        case 'bm tags get'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm tags add'
            printf '%s\n' '--visibility	public, internal or private (or 1, 2, 3)' '--help	show help' '-h	show help'
        case 'bm tags edit'
            printf '%s\n' '--name	new name' '--visibility	public, internal or private (or 1, 2, 3)' '--help	show help' '-h	show help'
        case 'bm tags rm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm tags links'
            printf '%s\n' '--limit	at most this many (default 25)' '--all	every item, following pages (rows print as pages arrive)' '--help	show help' '-h	show help'
        case 'bm notes'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm notes add'
            printf '%s\n' '--visibility	public, internal or private (or 1, 2, 3)' '--help	show help' '-h	show help'
        case 'bm notes edit'
            printf '%s\n' '--visibility	public, internal or private (or 1, 2, 3)' '--help	show help' '-h	show help'
        case 'bm notes rm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm search'
            printf '%s\n' '--type	links, tags or lists (default links)' '--title	match the title (with --description: only those; default URL, title and description)' '--description	match the description' '--url-only	match the URL only' '--tag	with this tag (repeatable; any of them)' '--list	in this list (repeatable; any of them)' '--visibility	public, internal or private (or 1, 2, 3)' '--broken	only moved or broken links' '--sort	title, url or created_at' '--order	asc or desc' '--limit	at most this many (default 25)' '--all	every item, following pages (rows print as pages arrive)' '--help	show help' '-h	show help'
        case 'bm bulk'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm bulk add'
            printf '%s\n' '--type	links, lists or tags (default links)' '--format	json, ndjson or csv (default: from the file name or content)' '--create-missing	create tags and lists named by the items' '--force	do not skip URLs (tags: names) that exist' '--help	show help' '-h	show help'
        case 'bm bulk edit'
            printf '%s\n' '--type	links, lists or tags (default links)' '--format	json, ndjson or csv (default: from the file name or content)' '--create-missing	create tags and lists named by the items' '--help	show help' '-h	show help'
        case 'bm bulk rm'
            printf '%s\n' '--type	links, lists or tags (default links)' '--format	json, ndjson or csv (default: from the file name or content)' '--help	show help' '-h	show help'
        case 'bm trash'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm trash list'
            printf '%s\n' '--type	links, lists, tags, notes or all (default all)' '--help	show help' '-h	show help'
        case 'bm trash restore'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'bm trash clear'
            printf '%s\n' '--type	links, lists, tags, notes or all (default all)' '--help	show help' '-h	show help'
        case 'bm import'
            printf '%s\n' '--dry-run	show what would be created, create nothing' '--folders	folders become lists (default), tags, or none' '--visibility	visibility of links the file says nothing about' '--client-side	parse the file here even when the server has an importer' '--help	show help' '-h	show help'
        case 'bm export'
            printf '%s\n' '--format	html, json or csv (default html, or from -o)' '--output	write to a file instead of stdout' '-o	write to a file instead of stdout' '--help	show help' '-h	show help'
        case 'bm check'
            printf '%s\n' '--broken	only broken links' '--id	check one link' '--help	show help' '-h	show help'
        case 'bm version'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe create'
            printf '%s\n' '--description	description of the pipeline' '--workers	number of worker threads' '--replace	replace the program of an existing pipeline' '--start	start the pipeline once it compiled' '--no-wait	return at once, without waiting for compilation' '--help	show help' '-h	show help'
        case 'pipe list'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe status'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe programs'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe start'
            printf '%s\n' '--no-wait	return once the start was accepted' '--help	show help' '-h	show help'
        case 'pipe pause'
            printf '%s\n' '--no-wait	return once the request was accepted' '--help	show help' '-h	show help'
        case 'pipe shutdown'
            printf '%s\n' '--no-wait	return once the request was accepted' '--force	today\'s Feldera: stop without a checkpoint' '--help	show help' '-h	show help'
        case 'pipe restart'
            printf '%s\n' '--no-wait	return once the start was accepted' '--force	today\'s Feldera: stop without a checkpoint' '--help	show help' '-h	show help'
        case 'pipe delete'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe clear'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe program'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe program get'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe program set'
            printf '%s\n' '--no-wait	return at once, without waiting for compilation' '--help	show help' '-h	show help'
        case 'pipe diff'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe validate'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe copy'
            printf '%s\n' '--description	description of the copy (default: the original one)' '--no-wait	return at once, without waiting for compilation' '--help	show help' '-h	show help'
        case 'pipe config'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe config get'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe config set'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe connector'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe connector start'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe connector pause'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe connector stats'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe ingest'
            printf '%s\n' '--format	input format (default: from the file name, else from the first bytes: JSON or Parquet)' '--batch-size	records per request (default: 1000; not with Parquet)' '--skip	leave out the first N records of the input (to go on after an interrupted ingest; not with Parquet)' '--header	CSV: the first line is a header naming the columns (default: when it names them)' '--no-header	CSV: the first line is a row, even if it looks like a header' '--wait	return when the pipeline has processed everything sent' '--force	send even while the pipeline is paused' '--help	show help' '-h	show help'
        case 'pipe watch'
            printf '%s\n' '--raw	print the server\'s frames as they arrive (keep-alives included)' '--snapshot	print the current contents of the views first' '--count	stop after N changes' '--help	show help' '-h	show help'
        case 'pipe snapshot'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe query'
            printf '%s\n' '--format	rows (a table, or --json), or the answer as an Arrow IPC stream, a Parquet file, or its hash' '--output	write an arrow, parquet or hash answer to this file (default stdout, which must not be a terminal for arrow and parquet)' '-o	write an arrow, parquet or hash answer to this file (default stdout, which must not be a terminal for arrow and parquet)' '--help	show help' '-h	show help'
        case 'pipe shell'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe stats'
            printf '%s\n' '--watch	refresh: redraw on a terminal, one NDJSON record per sample otherwise' '--interval	seconds between samples with --watch' '--help	show help' '-h	show help'
        case 'pipe logs'
            printf '%s\n' '--follow	keep printing new lines until interrupted or the stream ends' '-f	keep printing new lines until interrupted or the stream ends' '--help	show help' '-h	show help'
        case 'pipe metrics'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe events'
            printf '%s\n' '--all	every field: the status details and the deployment error' '--help	show help' '-h	show help'
        case 'pipe txn'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe txn start'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe txn commit'
            printf '%s\n' '--wait	return once stats show the transaction committed' '--help	show help' '-h	show help'
        case 'pipe txn status'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'pipe clock'
            printf '%s\n' '--advance	move the clock forward by this many milliseconds (rounded up to its resolution) first' '--tick	move the clock forward by one tick of clock_resolution_usecs first' '--help	show help' '-h	show help'
        case 'hook'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'hook serve'
            printf '%s\n' '--port	port to listen on (0 picks a free one)' '-p	port to listen on (0 picks a free one)' '--host	interface to listen on' '-a	interface to listen on' '--path	the path events are POSTed to' '--secret-file	file holding the signing secret (else OPS_HOOK_SECRET, the profile, or a generated one)' '--forward-to	forward each new event (re-signed, same bytes) to this URL' '--forward-secret-file	sign forwarded requests with this secret instead' '--events	only these event types (comma list, repeatable); others get 200 and are dropped' '--store	event store for de-duplication and replay (default $XDG_STATE_HOME/ops/hook/events.ndjson)' '--no-store	keep nothing on disk (duplicates remembered until exit)' '--max-body	largest accepted body, e.g. 1mb, 256kb' '--retention	forget stored events older than this at start' '--lenient	also accept sha256=-prefixed and upper-case signatures' '--print-secret	print the signing secret in use and exit' '--help	show help' '-h	show help'
        case 'hook verify'
            printf '%s\n' '--signature	the x-signature value to check' '--secret-file	file holding the secret (else OPS_HOOK_SECRET or the profile)' '--lenient	also accept sha256=-prefixed and upper-case signatures' '--help	show help' '-h	show help'
        case 'hook sign'
            printf '%s\n' '--secret-file	file holding the secret (else OPS_HOOK_SECRET or the profile)' '--header	print it as a header line: "x-signature: ..."' '--help	show help' '-h	show help'
        case 'hook replay'
            printf '%s\n' '--to	where to send the events' '--id	only this event (with --failed: an event or delivery id)' '--since	only events received since an ISO time or a duration back (30m, 2h, 7d)' '--type	only this event type' '--from	read envelopes from a file (JSON array or NDJSON, e.g. saved `ops hook serve --json` output; - for stdin)' '--store	the receiver store to read (default $XDG_STATE_HOME/ops/hook/events.ndjson)' '--secret-file	file holding the secret to sign with (else OPS_HOOK_SECRET or the profile)' '--failed	ask the notification service to redeliver its failed deliveries' '--dry-run	show what would be sent' '--help	show help' '-h	show help'
        case 'hook register'
            printf '%s\n' '--url	the receiver URL (or as the argument)' '--events	event types, comma list (repeatable), or "*" for all' '--secret-file	signing secret (else OPS_HOOK_SECRET / the profile; else the service generates one)' '--description	a note for yourself' '--help	show help' '-h	show help'
        case 'hook update'
            printf '%s\n' '--url	the new receiver URL' '--events	the new event types, comma list (repeatable), or "*"' '--secret-file	the new signing secret' '--description	the new note ("" clears it)' '--help	show help' '-h	show help'
        case 'hook list'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'hook rm'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'hook trigger'
            printf '%s\n' '--data	the payload, a JSON object' '--data-file	the payload from a file (- for stdin)' '--list	list the event types' '--help	show help' '-h	show help'
        case 'hook deliveries'
            printf '%s\n' '--status	pending, delivered or failed' '--webhook	only deliveries to this webhook' '--event	only deliveries of this event' '--type	only deliveries of events of this type' '--limit	at most this many (1-500, default 50)' '--help	show help' '-h	show help'
        case 'hook redeliver'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'hook dashboard'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'serve'
            printf '%s\n' '--host	interface to listen on' '--port	port to listen on (0 picks a free one)' '--data-dir	where the services keep their data (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--rate-limit	bookmark API requests per minute per token, "60" or "60,1" (env API_RATE_LIMIT)' '--retry-scale	multiply webhook retry delays (0.001 runs the whole schedule in seconds)' '--pipelines-auth	require Authorization: Bearer apikey:... on the pipeline API' '--feldera	which Feldera API the pipeline service answers: auto (each client its own: today\'s SDK and fda get today\'s statuses, shapes and lower-case names, v0.24 clients and ops pipe v0.24\'s), or current / v0.24 for every client' '--output-case	case of unquoted pipeline names in output for every client (a pipeline\'s program_config.output_case overrides); an alias of one half of --feldera' '--pipeline-api	pipeline objects in v0.24\'s shape or today\'s for every client; an alias of the other half of --feldera' '--guest-access	let guests without a token read public bookmarks' '--no-link-check	do not check link health in the background' '--no-metadata	do not fetch page titles and descriptions for new links' '--fetch-policy	what outbound requests (link metadata and checks, webhooks, url_input) may reach: public refuses loopback and private addresses (default: any on a loopback bind, public otherwise)' '--connector-root	the only directory pipeline file connectors may read and write (default <data-dir>/files)' '--query-timeout	time limit of an ad-hoc pipeline query, past which it is cancelled (default 30)' '--query-max-rows	rows an ad-hoc pipeline query may build, and its answer have (default 100000000)' '--query-max-mb	largest answer of an ad-hoc pipeline query, in MiB (default 256)' '--demo	start with demo content in every service' '--log-requests	print one line per request on stderr: time, method, path, status, milliseconds (secrets redacted)' '--detach	start in the background: wait until every service answers, print the URLs and profile, exit 0 (log: ops serve logs)' '-d	start in the background: wait until every service answers, print the URLs and profile, exit 0 (log: ops serve logs)' '--ready-file	write this file (JSON: url, services, profile, pid) once every service answers; removed on stop' '--max-connections	open connections at once; one more is answered 503 and closed (default 1000)' '--max-webhooks	webhook registrations the notification service holds; one more is 403 (default 1000)' '--max-pipelines	pipelines the pipeline service holds; one more is 403 (default 100)' '--reset-store	a store found damaged at start is moved aside (<file>.damaged-<time>) and started empty, instead of refusing to start' '--help	show help' '-h	show help'
        case 'serve status'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve stop'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve logs'
            printf '%s\n' '--lines	only the last N lines' '-n	only the last N lines' '--follow	keep printing what is appended, until the server stops (or Ctrl-C)' '-f	keep printing what is appended, until the server stops (or Ctrl-C)' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve reset'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve user'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'serve user add'
            printf '%s\n' '--name	display name' '--email	email address (unique)' '--token-name	name of the first token' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve user list'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve user update'
            printf '%s\n' '--name	the new display name' '--email	the new email address (unique)' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve user rm'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve token'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'serve token create'
            printf '%s\n' '--user	the user (id or email) the token acts as' '--system	a system token: reads public and internal items of every user' '--private-access	with --system: also read private items' '--name	a name to recognise the token by' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve token list'
            printf '%s\n' '--user	only this user\'s tokens' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve token revoke'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve key'
            printf '%s\n' '--help	show help' '-h	show help'
        case 'serve key create'
            printf '%s\n' '--name	a name to recognise the key by' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve key list'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
        case 'serve key revoke'
            printf '%s\n' '--data-dir	data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)' '--help	show help' '-h	show help'
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
        case 'bm links|--help'
            echo ''; return 0
        case 'bm links|-h'
            echo ''; return 0
        case 'bm links list|--tag'
            echo 'd:tags'; return 0
        case 'bm links list|--list'
            echo '-'; return 0
        case 'bm links list|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm links list|--broken'
            echo ''; return 0
        case 'bm links list|--status'
            echo 'c:ok moved broken'; return 0
        case 'bm links list|--query'
            echo '-'; return 0
        case 'bm links list|-q'
            echo '-'; return 0
        case 'bm links list|--sort'
            echo '-'; return 0
        case 'bm links list|--order'
            echo 'c:asc desc'; return 0
        case 'bm links list|--limit'
            echo '-'; return 0
        case 'bm links list|--all'
            echo ''; return 0
        case 'bm links list|--help'
            echo ''; return 0
        case 'bm links list|-h'
            echo ''; return 0
        case 'bm links get|--help'
            echo ''; return 0
        case 'bm links get|-h'
            echo ''; return 0
        case 'bm links add|--title'
            echo '-'; return 0
        case 'bm links add|--description'
            echo '-'; return 0
        case 'bm links add|--tag'
            echo 'd:tags'; return 0
        case 'bm links add|--list'
            echo '-'; return 0
        case 'bm links add|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm links add|--check-disabled'
            echo ''; return 0
        case 'bm links add|--create-missing'
            echo ''; return 0
        case 'bm links add|--force'
            echo ''; return 0
        case 'bm links add|--help'
            echo ''; return 0
        case 'bm links add|-h'
            echo ''; return 0
        case 'bm links edit|--title'
            echo '-'; return 0
        case 'bm links edit|--description'
            echo '-'; return 0
        case 'bm links edit|--tag'
            echo 'd:tags'; return 0
        case 'bm links edit|--list'
            echo '-'; return 0
        case 'bm links edit|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm links edit|--check-disabled'
            echo ''; return 0
        case 'bm links edit|--create-missing'
            echo ''; return 0
        case 'bm links edit|--url'
            echo '-'; return 0
        case 'bm links edit|--add-tag'
            echo 'd:tags'; return 0
        case 'bm links edit|--remove-tag'
            echo 'd:tags'; return 0
        case 'bm links edit|--add-list'
            echo '-'; return 0
        case 'bm links edit|--remove-list'
            echo '-'; return 0
        case 'bm links edit|--check-enabled'
            echo ''; return 0
        case 'bm links edit|--help'
            echo ''; return 0
        case 'bm links edit|-h'
            echo ''; return 0
        case 'bm links rm|--help'
            echo ''; return 0
        case 'bm links rm|-h'
            echo ''; return 0
        case 'bm links open|--print'
            echo ''; return 0
        case 'bm links open|--help'
            echo ''; return 0
        case 'bm links open|-h'
            echo ''; return 0
        case 'bm links notes|--help'
            echo ''; return 0
        case 'bm links notes|-h'
            echo ''; return 0
        case 'bm lists|--help'
            echo ''; return 0
        case 'bm lists|-h'
            echo ''; return 0
        case 'bm lists list|--limit'
            echo '-'; return 0
        case 'bm lists list|--all'
            echo ''; return 0
        case 'bm lists list|--sort'
            echo '-'; return 0
        case 'bm lists list|--order'
            echo 'c:asc desc'; return 0
        case 'bm lists list|--help'
            echo ''; return 0
        case 'bm lists list|-h'
            echo ''; return 0
        case 'bm lists get|--help'
            echo ''; return 0
        case 'bm lists get|-h'
            echo ''; return 0
        case 'bm lists add|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm lists add|--description'
            echo '-'; return 0
        case 'bm lists add|--help'
            echo ''; return 0
        case 'bm lists add|-h'
            echo ''; return 0
        case 'bm lists edit|--name'
            echo '-'; return 0
        case 'bm lists edit|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm lists edit|--description'
            echo '-'; return 0
        case 'bm lists edit|--help'
            echo ''; return 0
        case 'bm lists edit|-h'
            echo ''; return 0
        case 'bm lists rm|--help'
            echo ''; return 0
        case 'bm lists rm|-h'
            echo ''; return 0
        case 'bm lists links|--limit'
            echo '-'; return 0
        case 'bm lists links|--all'
            echo ''; return 0
        case 'bm lists links|--help'
            echo ''; return 0
        case 'bm lists links|-h'
            echo ''; return 0
        case 'bm tags|--help'
            echo ''; return 0
        case 'bm tags|-h'
            echo ''; return 0
        case 'bm tags list|--limit'
            echo '-'; return 0
        case 'bm tags list|--all'
            echo ''; return 0
        case 'bm tags list|--sort'
            echo '-'; return 0
        case 'bm tags list|--order'
            echo 'c:asc desc'; return 0
        case 'bm tags list|--help'
            echo ''; return 0
        case 'bm tags list|-h'
            echo ''; return 0
        case 'bm tags get|--help'
            echo ''; return 0
        case 'bm tags get|-h'
            echo ''; return 0
        case 'bm tags add|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm tags add|--help'
            echo ''; return 0
        case 'bm tags add|-h'
            echo ''; return 0
        case 'bm tags edit|--name'
            echo '-'; return 0
        case 'bm tags edit|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm tags edit|--help'
            echo ''; return 0
        case 'bm tags edit|-h'
            echo ''; return 0
        case 'bm tags rm|--help'
            echo ''; return 0
        case 'bm tags rm|-h'
            echo ''; return 0
        case 'bm tags links|--limit'
            echo '-'; return 0
        case 'bm tags links|--all'
            echo ''; return 0
        case 'bm tags links|--help'
            echo ''; return 0
        case 'bm tags links|-h'
            echo ''; return 0
        case 'bm notes|--help'
            echo ''; return 0
        case 'bm notes|-h'
            echo ''; return 0
        case 'bm notes add|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm notes add|--help'
            echo ''; return 0
        case 'bm notes add|-h'
            echo ''; return 0
        case 'bm notes edit|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm notes edit|--help'
            echo ''; return 0
        case 'bm notes edit|-h'
            echo ''; return 0
        case 'bm notes rm|--help'
            echo ''; return 0
        case 'bm notes rm|-h'
            echo ''; return 0
        case 'bm search|--type'
            echo '-'; return 0
        case 'bm search|--title'
            echo ''; return 0
        case 'bm search|--description'
            echo ''; return 0
        case 'bm search|--url-only'
            echo ''; return 0
        case 'bm search|--tag'
            echo 'd:tags'; return 0
        case 'bm search|--list'
            echo '-'; return 0
        case 'bm search|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm search|--broken'
            echo ''; return 0
        case 'bm search|--sort'
            echo '-'; return 0
        case 'bm search|--order'
            echo 'c:asc desc'; return 0
        case 'bm search|--limit'
            echo '-'; return 0
        case 'bm search|--all'
            echo ''; return 0
        case 'bm search|--help'
            echo ''; return 0
        case 'bm search|-h'
            echo ''; return 0
        case 'bm bulk|--help'
            echo ''; return 0
        case 'bm bulk|-h'
            echo ''; return 0
        case 'bm bulk add|--type'
            echo '-'; return 0
        case 'bm bulk add|--format'
            echo '-'; return 0
        case 'bm bulk add|--create-missing'
            echo ''; return 0
        case 'bm bulk add|--force'
            echo ''; return 0
        case 'bm bulk add|--help'
            echo ''; return 0
        case 'bm bulk add|-h'
            echo ''; return 0
        case 'bm bulk edit|--type'
            echo '-'; return 0
        case 'bm bulk edit|--format'
            echo '-'; return 0
        case 'bm bulk edit|--create-missing'
            echo ''; return 0
        case 'bm bulk edit|--help'
            echo ''; return 0
        case 'bm bulk edit|-h'
            echo ''; return 0
        case 'bm bulk rm|--type'
            echo '-'; return 0
        case 'bm bulk rm|--format'
            echo '-'; return 0
        case 'bm bulk rm|--help'
            echo ''; return 0
        case 'bm bulk rm|-h'
            echo ''; return 0
        case 'bm trash|--help'
            echo ''; return 0
        case 'bm trash|-h'
            echo ''; return 0
        case 'bm trash list|--type'
            echo '-'; return 0
        case 'bm trash list|--help'
            echo ''; return 0
        case 'bm trash list|-h'
            echo ''; return 0
        case 'bm trash restore|--help'
            echo ''; return 0
        case 'bm trash restore|-h'
            echo ''; return 0
        case 'bm trash clear|--type'
            echo '-'; return 0
        case 'bm trash clear|--help'
            echo ''; return 0
        case 'bm trash clear|-h'
            echo ''; return 0
        case 'bm import|--dry-run'
            echo ''; return 0
        case 'bm import|--folders'
            echo '-'; return 0
        case 'bm import|--visibility'
            echo 'c:public internal private 1 2 3'; return 0
        case 'bm import|--client-side'
            echo ''; return 0
        case 'bm import|--help'
            echo ''; return 0
        case 'bm import|-h'
            echo ''; return 0
        case 'bm export|--format'
            echo '-'; return 0
        case 'bm export|--output'
            echo 'f'; return 0
        case 'bm export|-o'
            echo 'f'; return 0
        case 'bm export|--help'
            echo ''; return 0
        case 'bm export|-h'
            echo ''; return 0
        case 'bm check|--broken'
            echo ''; return 0
        case 'bm check|--id'
            echo '-'; return 0
        case 'bm check|--help'
            echo ''; return 0
        case 'bm check|-h'
            echo ''; return 0
        case 'bm version|--help'
            echo ''; return 0
        case 'bm version|-h'
            echo ''; return 0
        case 'pipe|--help'
            echo ''; return 0
        case 'pipe|-h'
            echo ''; return 0
        case 'pipe create|--description'
            echo '-'; return 0
        case 'pipe create|--workers'
            echo '-'; return 0
        case 'pipe create|--replace'
            echo ''; return 0
        case 'pipe create|--start'
            echo ''; return 0
        case 'pipe create|--no-wait'
            echo ''; return 0
        case 'pipe create|--help'
            echo ''; return 0
        case 'pipe create|-h'
            echo ''; return 0
        case 'pipe list|--help'
            echo ''; return 0
        case 'pipe list|-h'
            echo ''; return 0
        case 'pipe status|--help'
            echo ''; return 0
        case 'pipe status|-h'
            echo ''; return 0
        case 'pipe programs|--help'
            echo ''; return 0
        case 'pipe programs|-h'
            echo ''; return 0
        case 'pipe start|--no-wait'
            echo ''; return 0
        case 'pipe start|--help'
            echo ''; return 0
        case 'pipe start|-h'
            echo ''; return 0
        case 'pipe pause|--no-wait'
            echo ''; return 0
        case 'pipe pause|--help'
            echo ''; return 0
        case 'pipe pause|-h'
            echo ''; return 0
        case 'pipe shutdown|--no-wait'
            echo ''; return 0
        case 'pipe shutdown|--force'
            echo ''; return 0
        case 'pipe shutdown|--help'
            echo ''; return 0
        case 'pipe shutdown|-h'
            echo ''; return 0
        case 'pipe restart|--no-wait'
            echo ''; return 0
        case 'pipe restart|--force'
            echo ''; return 0
        case 'pipe restart|--help'
            echo ''; return 0
        case 'pipe restart|-h'
            echo ''; return 0
        case 'pipe delete|--help'
            echo ''; return 0
        case 'pipe delete|-h'
            echo ''; return 0
        case 'pipe clear|--help'
            echo ''; return 0
        case 'pipe clear|-h'
            echo ''; return 0
        case 'pipe program|--help'
            echo ''; return 0
        case 'pipe program|-h'
            echo ''; return 0
        case 'pipe program get|--help'
            echo ''; return 0
        case 'pipe program get|-h'
            echo ''; return 0
        case 'pipe program set|--no-wait'
            echo ''; return 0
        case 'pipe program set|--help'
            echo ''; return 0
        case 'pipe program set|-h'
            echo ''; return 0
        case 'pipe diff|--help'
            echo ''; return 0
        case 'pipe diff|-h'
            echo ''; return 0
        case 'pipe validate|--help'
            echo ''; return 0
        case 'pipe validate|-h'
            echo ''; return 0
        case 'pipe copy|--description'
            echo '-'; return 0
        case 'pipe copy|--no-wait'
            echo ''; return 0
        case 'pipe copy|--help'
            echo ''; return 0
        case 'pipe copy|-h'
            echo ''; return 0
        case 'pipe config|--help'
            echo ''; return 0
        case 'pipe config|-h'
            echo ''; return 0
        case 'pipe config get|--help'
            echo ''; return 0
        case 'pipe config get|-h'
            echo ''; return 0
        case 'pipe config set|--help'
            echo ''; return 0
        case 'pipe config set|-h'
            echo ''; return 0
        case 'pipe connector|--help'
            echo ''; return 0
        case 'pipe connector|-h'
            echo ''; return 0
        case 'pipe connector start|--help'
            echo ''; return 0
        case 'pipe connector start|-h'
            echo ''; return 0
        case 'pipe connector pause|--help'
            echo ''; return 0
        case 'pipe connector pause|-h'
            echo ''; return 0
        case 'pipe connector stats|--help'
            echo ''; return 0
        case 'pipe connector stats|-h'
            echo ''; return 0
        case 'pipe ingest|--format'
            echo 'c:json csv parquet'; return 0
        case 'pipe ingest|--batch-size'
            echo '-'; return 0
        case 'pipe ingest|--skip'
            echo '-'; return 0
        case 'pipe ingest|--header'
            echo ''; return 0
        case 'pipe ingest|--no-header'
            echo ''; return 0
        case 'pipe ingest|--wait'
            echo ''; return 0
        case 'pipe ingest|--force'
            echo ''; return 0
        case 'pipe ingest|--help'
            echo ''; return 0
        case 'pipe ingest|-h'
            echo ''; return 0
        case 'pipe watch|--raw'
            echo ''; return 0
        case 'pipe watch|--snapshot'
            echo ''; return 0
        case 'pipe watch|--count'
            echo '-'; return 0
        case 'pipe watch|--help'
            echo ''; return 0
        case 'pipe watch|-h'
            echo ''; return 0
        case 'pipe snapshot|--help'
            echo ''; return 0
        case 'pipe snapshot|-h'
            echo ''; return 0
        case 'pipe query|--format'
            echo 'c:rows arrow parquet hash'; return 0
        case 'pipe query|--output'
            echo 'f'; return 0
        case 'pipe query|-o'
            echo 'f'; return 0
        case 'pipe query|--help'
            echo ''; return 0
        case 'pipe query|-h'
            echo ''; return 0
        case 'pipe shell|--help'
            echo ''; return 0
        case 'pipe shell|-h'
            echo ''; return 0
        case 'pipe stats|--watch'
            echo ''; return 0
        case 'pipe stats|--interval'
            echo '-'; return 0
        case 'pipe stats|--help'
            echo ''; return 0
        case 'pipe stats|-h'
            echo ''; return 0
        case 'pipe logs|--follow'
            echo ''; return 0
        case 'pipe logs|-f'
            echo ''; return 0
        case 'pipe logs|--help'
            echo ''; return 0
        case 'pipe logs|-h'
            echo ''; return 0
        case 'pipe metrics|--help'
            echo ''; return 0
        case 'pipe metrics|-h'
            echo ''; return 0
        case 'pipe events|--all'
            echo ''; return 0
        case 'pipe events|--help'
            echo ''; return 0
        case 'pipe events|-h'
            echo ''; return 0
        case 'pipe txn|--help'
            echo ''; return 0
        case 'pipe txn|-h'
            echo ''; return 0
        case 'pipe txn start|--help'
            echo ''; return 0
        case 'pipe txn start|-h'
            echo ''; return 0
        case 'pipe txn commit|--wait'
            echo ''; return 0
        case 'pipe txn commit|--help'
            echo ''; return 0
        case 'pipe txn commit|-h'
            echo ''; return 0
        case 'pipe txn status|--help'
            echo ''; return 0
        case 'pipe txn status|-h'
            echo ''; return 0
        case 'pipe clock|--advance'
            echo '-'; return 0
        case 'pipe clock|--tick'
            echo ''; return 0
        case 'pipe clock|--help'
            echo ''; return 0
        case 'pipe clock|-h'
            echo ''; return 0
        case 'hook|--help'
            echo ''; return 0
        case 'hook|-h'
            echo ''; return 0
        case 'hook serve|--port'
            echo '-'; return 0
        case 'hook serve|-p'
            echo '-'; return 0
        case 'hook serve|--host'
            echo '-'; return 0
        case 'hook serve|-a'
            echo '-'; return 0
        case 'hook serve|--path'
            echo 'f'; return 0
        case 'hook serve|--secret-file'
            echo 'f'; return 0
        case 'hook serve|--forward-to'
            echo '-'; return 0
        case 'hook serve|--forward-secret-file'
            echo 'f'; return 0
        case 'hook serve|--events'
            echo 'd:events'; return 0
        case 'hook serve|--store'
            echo 'f'; return 0
        case 'hook serve|--no-store'
            echo ''; return 0
        case 'hook serve|--max-body'
            echo '-'; return 0
        case 'hook serve|--retention'
            echo '-'; return 0
        case 'hook serve|--lenient'
            echo ''; return 0
        case 'hook serve|--print-secret'
            echo ''; return 0
        case 'hook serve|--help'
            echo ''; return 0
        case 'hook serve|-h'
            echo ''; return 0
        case 'hook verify|--signature'
            echo '-'; return 0
        case 'hook verify|--secret-file'
            echo 'f'; return 0
        case 'hook verify|--lenient'
            echo ''; return 0
        case 'hook verify|--help'
            echo ''; return 0
        case 'hook verify|-h'
            echo ''; return 0
        case 'hook sign|--secret-file'
            echo 'f'; return 0
        case 'hook sign|--header'
            echo ''; return 0
        case 'hook sign|--help'
            echo ''; return 0
        case 'hook sign|-h'
            echo ''; return 0
        case 'hook replay|--to'
            echo '-'; return 0
        case 'hook replay|--id'
            echo '-'; return 0
        case 'hook replay|--since'
            echo '-'; return 0
        case 'hook replay|--type'
            echo 'd:events'; return 0
        case 'hook replay|--from'
            echo 'f'; return 0
        case 'hook replay|--store'
            echo 'f'; return 0
        case 'hook replay|--secret-file'
            echo 'f'; return 0
        case 'hook replay|--failed'
            echo ''; return 0
        case 'hook replay|--dry-run'
            echo ''; return 0
        case 'hook replay|--help'
            echo ''; return 0
        case 'hook replay|-h'
            echo ''; return 0
        case 'hook register|--url'
            echo '-'; return 0
        case 'hook register|--events'
            echo 'd:events'; return 0
        case 'hook register|--secret-file'
            echo 'f'; return 0
        case 'hook register|--description'
            echo '-'; return 0
        case 'hook register|--help'
            echo ''; return 0
        case 'hook register|-h'
            echo ''; return 0
        case 'hook update|--url'
            echo '-'; return 0
        case 'hook update|--events'
            echo 'd:events'; return 0
        case 'hook update|--secret-file'
            echo 'f'; return 0
        case 'hook update|--description'
            echo '-'; return 0
        case 'hook update|--help'
            echo ''; return 0
        case 'hook update|-h'
            echo ''; return 0
        case 'hook list|--help'
            echo ''; return 0
        case 'hook list|-h'
            echo ''; return 0
        case 'hook rm|--help'
            echo ''; return 0
        case 'hook rm|-h'
            echo ''; return 0
        case 'hook trigger|--data'
            echo '-'; return 0
        case 'hook trigger|--data-file'
            echo 'f'; return 0
        case 'hook trigger|--list'
            echo ''; return 0
        case 'hook trigger|--help'
            echo ''; return 0
        case 'hook trigger|-h'
            echo ''; return 0
        case 'hook deliveries|--status'
            echo '-'; return 0
        case 'hook deliveries|--webhook'
            echo '-'; return 0
        case 'hook deliveries|--event'
            echo '-'; return 0
        case 'hook deliveries|--type'
            echo 'd:events'; return 0
        case 'hook deliveries|--limit'
            echo '-'; return 0
        case 'hook deliveries|--help'
            echo ''; return 0
        case 'hook deliveries|-h'
            echo ''; return 0
        case 'hook redeliver|--help'
            echo ''; return 0
        case 'hook redeliver|-h'
            echo ''; return 0
        case 'hook dashboard|--help'
            echo ''; return 0
        case 'hook dashboard|-h'
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
        case 'serve|--feldera'
            echo 'c:auto current v0.24'; return 0
        case 'serve|--output-case'
            echo 'c:upper lower'; return 0
        case 'serve|--pipeline-api'
            echo 'c:v0.24 current'; return 0
        case 'serve|--guest-access'
            echo ''; return 0
        case 'serve|--no-link-check'
            echo ''; return 0
        case 'serve|--no-metadata'
            echo ''; return 0
        case 'serve|--fetch-policy'
            echo 'c:public any'; return 0
        case 'serve|--connector-root'
            echo 'D'; return 0
        case 'serve|--query-timeout'
            echo '-'; return 0
        case 'serve|--query-max-rows'
            echo '-'; return 0
        case 'serve|--query-max-mb'
            echo '-'; return 0
        case 'serve|--demo'
            echo ''; return 0
        case 'serve|--log-requests'
            echo ''; return 0
        case 'serve|--detach'
            echo ''; return 0
        case 'serve|-d'
            echo ''; return 0
        case 'serve|--ready-file'
            echo 'f'; return 0
        case 'serve|--max-connections'
            echo '-'; return 0
        case 'serve|--max-webhooks'
            echo '-'; return 0
        case 'serve|--max-pipelines'
            echo '-'; return 0
        case 'serve|--reset-store'
            echo 'c:bookmarks pipelines notifications'; return 0
        case 'serve|--help'
            echo ''; return 0
        case 'serve|-h'
            echo ''; return 0
        case 'serve status|--data-dir'
            echo 'D'; return 0
        case 'serve status|--help'
            echo ''; return 0
        case 'serve status|-h'
            echo ''; return 0
        case 'serve stop|--data-dir'
            echo 'D'; return 0
        case 'serve stop|--help'
            echo ''; return 0
        case 'serve stop|-h'
            echo ''; return 0
        case 'serve logs|--lines'
            echo '-'; return 0
        case 'serve logs|-n'
            echo '-'; return 0
        case 'serve logs|--follow'
            echo ''; return 0
        case 'serve logs|-f'
            echo ''; return 0
        case 'serve logs|--data-dir'
            echo 'D'; return 0
        case 'serve logs|--help'
            echo ''; return 0
        case 'serve logs|-h'
            echo ''; return 0
        case 'serve reset|--data-dir'
            echo 'D'; return 0
        case 'serve reset|--help'
            echo ''; return 0
        case 'serve reset|-h'
            echo ''; return 0
        case 'serve user|--help'
            echo ''; return 0
        case 'serve user|-h'
            echo ''; return 0
        case 'serve user add|--name'
            echo '-'; return 0
        case 'serve user add|--email'
            echo '-'; return 0
        case 'serve user add|--token-name'
            echo '-'; return 0
        case 'serve user add|--data-dir'
            echo 'D'; return 0
        case 'serve user add|--help'
            echo ''; return 0
        case 'serve user add|-h'
            echo ''; return 0
        case 'serve user list|--data-dir'
            echo 'D'; return 0
        case 'serve user list|--help'
            echo ''; return 0
        case 'serve user list|-h'
            echo ''; return 0
        case 'serve user update|--name'
            echo '-'; return 0
        case 'serve user update|--email'
            echo '-'; return 0
        case 'serve user update|--data-dir'
            echo 'D'; return 0
        case 'serve user update|--help'
            echo ''; return 0
        case 'serve user update|-h'
            echo ''; return 0
        case 'serve user rm|--data-dir'
            echo 'D'; return 0
        case 'serve user rm|--help'
            echo ''; return 0
        case 'serve user rm|-h'
            echo ''; return 0
        case 'serve token|--help'
            echo ''; return 0
        case 'serve token|-h'
            echo ''; return 0
        case 'serve token create|--user'
            echo '-'; return 0
        case 'serve token create|--system'
            echo ''; return 0
        case 'serve token create|--private-access'
            echo ''; return 0
        case 'serve token create|--name'
            echo '-'; return 0
        case 'serve token create|--data-dir'
            echo 'D'; return 0
        case 'serve token create|--help'
            echo ''; return 0
        case 'serve token create|-h'
            echo ''; return 0
        case 'serve token list|--user'
            echo '-'; return 0
        case 'serve token list|--data-dir'
            echo 'D'; return 0
        case 'serve token list|--help'
            echo ''; return 0
        case 'serve token list|-h'
            echo ''; return 0
        case 'serve token revoke|--data-dir'
            echo 'D'; return 0
        case 'serve token revoke|--help'
            echo ''; return 0
        case 'serve token revoke|-h'
            echo ''; return 0
        case 'serve key|--help'
            echo ''; return 0
        case 'serve key|-h'
            echo ''; return 0
        case 'serve key create|--name'
            echo '-'; return 0
        case 'serve key create|--data-dir'
            echo 'D'; return 0
        case 'serve key create|--help'
            echo ''; return 0
        case 'serve key create|-h'
            echo ''; return 0
        case 'serve key list|--data-dir'
            echo 'D'; return 0
        case 'serve key list|--help'
            echo ''; return 0
        case 'serve key list|-h'
            echo ''; return 0
        case 'serve key revoke|--data-dir'
            echo 'D'; return 0
        case 'serve key revoke|--help'
            echo ''; return 0
        case 'serve key revoke|-h'
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
        case 'bm links get'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm links add'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm links edit'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm links rm'
            switch $argv[2]
                case 0
                    echo '-'
                case '*'
                    test $argv[2] -ge 0; and echo '-'
            end
        case 'bm links open'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm links notes'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm lists get'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm lists add'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm lists edit'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm lists rm'
            switch $argv[2]
                case 0
                    echo '-'
                case '*'
                    test $argv[2] -ge 0; and echo '-'
            end
        case 'bm lists links'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm tags get'
            switch $argv[2]
                case 0
                    echo 'd:tags'
            end
        case 'bm tags add'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm tags edit'
            switch $argv[2]
                case 0
                    echo 'd:tags'
            end
        case 'bm tags rm'
            switch $argv[2]
                case 0
                    echo 'd:tags'
                case '*'
                    test $argv[2] -ge 0; and echo 'd:tags'
            end
        case 'bm tags links'
            switch $argv[2]
                case 0
                    echo 'd:tags'
            end
        case 'bm notes add'
            switch $argv[2]
                case 0
                    echo '-'
                case 1
                    echo '-'
            end
        case 'bm notes edit'
            switch $argv[2]
                case 0
                    echo '-'
                case 1
                    echo '-'
            end
        case 'bm notes rm'
            switch $argv[2]
                case 0
                    echo '-'
                case '*'
                    test $argv[2] -ge 0; and echo '-'
            end
        case 'bm search'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'bm bulk add'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'bm bulk edit'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'bm bulk rm'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'bm trash restore'
            switch $argv[2]
                case 0
                    echo '-'
                case 1
                    echo '-'
                case '*'
                    test $argv[2] -ge 1; and echo '-'
            end
        case 'bm import'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'bm check'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'pipe create'
            switch $argv[2]
                case 0
                    echo '-'
                case 1
                    echo 'f'
            end
        case 'pipe status'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe start'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe pause'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe shutdown'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe restart'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe delete'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe clear'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe program get'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe program set'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'f'
            end
        case 'pipe diff'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'f'
            end
        case 'pipe validate'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'pipe copy'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo '-'
            end
        case 'pipe config get'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo '-'
            end
        case 'pipe config set'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo '-'
                case 2
                    echo '-'
            end
        case 'pipe connector start'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'd:relations:0'
                case 2
                    echo '-'
            end
        case 'pipe connector pause'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'd:relations:0'
                case 2
                    echo '-'
            end
        case 'pipe connector stats'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'd:relations:0'
                case 2
                    echo '-'
            end
        case 'pipe ingest'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'd:relations:0'
                case 2
                    echo 'f'
            end
        case 'pipe watch'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'd:relations:0'
                case '*'
                    test $argv[2] -ge 1; and echo 'd:relations:0'
            end
        case 'pipe snapshot'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo 'd:relations:0'
            end
        case 'pipe query'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo '-'
            end
        case 'pipe shell'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe stats'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe logs'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe metrics'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe events'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
                case 1
                    echo '-'
            end
        case 'pipe txn start'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe txn commit'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe txn status'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'pipe clock'
            switch $argv[2]
                case 0
                    echo 'd:pipelines'
            end
        case 'hook verify'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'hook sign'
            switch $argv[2]
                case 0
                    echo 'f'
            end
        case 'hook register'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'hook update'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'hook rm'
            switch $argv[2]
                case 0
                    echo '-'
                case '*'
                    test $argv[2] -ge 0; and echo '-'
            end
        case 'hook trigger'
            switch $argv[2]
                case 0
                    echo 'd:events'
            end
        case 'hook deliveries'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'hook redeliver'
            switch $argv[2]
                case 0
                    echo '-'
                case '*'
                    test $argv[2] -ge 0; and echo '-'
            end
        case 'serve user update'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'serve user rm'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'serve token revoke'
            switch $argv[2]
                case 0
                    echo '-'
            end
        case 'serve key revoke'
            switch $argv[2]
                case 0
                    echo '-'
            end
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
