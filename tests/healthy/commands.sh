# Sourced by ./run in each command's own shell: the helpers and one
# cmd_NAME function per row of ./table.  The caller sets W (the work dir,
# also the cwd), MODE (run or strace), RC_BIN and PY.
# A TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The pid listening on 127.0.0.1:PORT, once there is one (up to 20 s).
listener() {
	local i pid
	for i in $(seq 200); do
		pid=$(ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
		[ -n "$pid" ] && { echo "$pid"; return 0; }
		sleep 0.1
	done
	return 1
}

# The command itself, under the mode's tracer: rootcause run, or strace
# (then analyze).  Its exit status goes to ./status.
traced() {
	local st=0
	case $MODE in
	run)
		"$RC_BIN" run --format json -o "$W/report.json" -- "$@" > "$W/cmd.out" 2> "$W/cmd.err" || st=$?
		;;
	strace)
		strace -f -tt -T -y -s 256 -o "$W/trace.log" "$@" > "$W/cmd.out" 2> "$W/cmd.err" || st=$?
		;;
	esac
	echo "$st" > "$W/status"
}

# A client's or set-up's failure: the sweep itself is broken.
broken() {
	echo "$*" > "$W/broken"
	return 1
}

skip() {
	echo "$*" > "$W/skip"
	exit 77
}

# ---- the commands (one function each, named in ./table) -----------------
# Each runs in its own work dir W (cwd, mode 0755, HOME=W/home) and calls
# `traced` once.  Servers are probed over loopback by a client running
# beside them, which then stops them the way their operators do.

cmd_torch_import() {
	"$PY" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("torch") is None)' ||
		skip "python3-torch is not installed"
	traced "$PY" -c 'import torch; print(torch.__version__)'
}

cmd_gcc() {
	printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' > hello.c
	traced gcc -O2 -Wall -o hello hello.c
}

cmd_git() {
	cat > git.sh <<-'EOF'
	set -e
	git init -q repo
	cd repo
	echo 'hello' > README
	git add README
	git -c user.name=sweep -c user.email=sweep@example.invalid commit -q -m 'first commit'
	git log --oneline
	EOF
	traced sh git.sh
}

cmd_make() {
	printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' > hello.c
	printf 'all: hello\nhello: hello.o\n\t$(CC) -o $@ $^\nclean:\n\trm -f hello hello.o\n' > Makefile
	traced make
}

cmd_nginx_t() {
	local port
	port=$(free_port)
	mkdir logs
	cat > nginx.conf <<-EOF
	pid $W/nginx.pid;
	error_log $W/logs/error.log;
	events { worker_connections 64; }
	http {
		access_log $W/logs/access.log;
		client_body_temp_path $W/body;
		proxy_temp_path $W/proxy;
		fastcgi_temp_path $W/fastcgi;
		uwsgi_temp_path $W/uwsgi;
		scgi_temp_path $W/scgi;
		server { listen 127.0.0.1:$port; root $W; }
	}
	EOF
	traced nginx -t -p "$W" -c "$W/nginx.conf"
}

cmd_node() {
	# An HTTP server on a loopback port fetched by the same process, with
	# the resolver set up as an HTTP client's first request does.
	cat > app.js <<-'EOF'
	const http = require('http');
	const dns = require('dns');
	new dns.Resolver();
	const srv = http.createServer((req, res) => res.end('hello\n'));
	srv.listen(0, '127.0.0.1', () => {
		http.get({ host: '127.0.0.1', port: srv.address().port, path: '/' }, (res) => {
			res.on('data', (d) => process.stdout.write(d));
			res.on('end', () => srv.close());
		});
	});
	EOF
	traced node -e "$(cat app.js)"
}

cmd_perl() {
	traced perl -MPOSIX -MFile::Temp=tempfile -MJSON::PP -e \
		'my ($fh, $n) = tempfile(DIR => "."); print $fh encode_json({t => strftime("%F", gmtime)}); close $fh; print "$n\n"'
}

cmd_tar() {
	mkdir -p src/a/b out
	seq 1 20000 > src/a/numbers
	printf 'x\n' > src/a/b/leaf
	cat > tar.sh <<-'EOF'
	set -e
	tar -cf src.tar src
	tar -xf src.tar -C out
	cmp src/a/numbers out/src/a/numbers
	EOF
	traced sh tar.sh
}

cmd_sqlite3() {
	traced sqlite3 db.sqlite 'create table t(k integer primary key, v text);
		insert into t(v) values ("a"), ("b"); select count(*) from t;'
}

cmd_apt_cache() {
	traced apt-cache policy bash
}

cmd_bash_login() {
	traced bash -l -c true
}

cmd_sort() {
	seq 1 200000 | "$PY" -c 'import random, sys; l = sys.stdin.readlines(); random.seed(1); random.shuffle(l); sys.stdout.writelines(l)' > in.txt
	traced sort -n -o out.txt in.txt
}

cmd_http_server() {
	local port
	port=$(free_port)
	mkdir www
	head -c 1200000 /dev/zero | tr '\0' 'x' > www/data.txt
	(
		pid=$(listener "$port") || exit 1
		for i in 1 2 3 4 5 6; do
			curl -sf --max-time 10 -o /dev/null "http://127.0.0.1:$port/data.txt" || echo fail > client.fail
		done
		kill -INT "$pid"
	) &
	local client=$!
	traced "$PY" -m http.server --bind 127.0.0.1 --directory www "$port"
	wait $client || broken "the server never listened on 127.0.0.1:$port"
	[ ! -e client.fail ] || broken "curl could not fetch data.txt"
}

cmd_redis() {
	local port
	port=$(free_port)
	(
		listener "$port" >/dev/null || exit 1
		redis-cli -p "$port" ping > ping.out
		redis-cli -p "$port" set k v >/dev/null
		redis-cli -p "$port" shutdown nosave || :
	) &
	local client=$!
	traced redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$W" \
		--daemonize no --logfile "$W/redis.log"
	wait $client || broken "redis-server never listened on 127.0.0.1:$port"
	grep -qx PONG ping.out || broken "redis-cli ping got no PONG"
}

# initdb refuses root: run it as nobody, which owns the data directory.
cmd_initdb() {
	local bin=/usr/lib/postgresql/15/bin
	[ -x $bin/initdb ] || skip "no PostgreSQL 15 (postgresql-15)"
	mkdir pg
	chown nobody pg
	traced runuser -u nobody -- $bin/initdb -D "$W/pg" -A trust -U postgres --no-sync
}

# The server itself, dropping root the way a unit's User= or an init
# script does (setpriv with the user's groups), on a loopback port.
cmd_postgres() {
	local bin=/usr/lib/postgresql/15/bin port
	[ -x $bin/postgres ] || skip "no PostgreSQL 15 (postgresql-15)"
	port=$(free_port)
	mkdir pg sock
	chown nobody pg sock
	runuser -u nobody -- $bin/initdb -D "$W/pg" -A trust -U postgres --no-sync > initdb.out 2>&1 ||
		broken "initdb failed"
	(
		pid=$(listener "$port") || exit 1
		# It listens before it accepts queries: a client that comes too
		# early is turned away ("FATAL: the database system is starting
		# up", in the server's own log), which would make the run depend
		# on the machine's speed. Wait for the server to say it is ready
		# (up to 20 s), and ask again for as long should it not say so.
		for i in $(seq 100); do
			grep -q 'ready to accept connections' "$W/cmd.err" 2>/dev/null && break
			sleep 0.2
		done
		for i in $(seq 100); do
			$bin/psql -h 127.0.0.1 -p "$port" -U postgres -At -c 'select 6 * 7' > query.out 2>&1 && break
			sleep 0.2
		done
		# SIGTERM is postgres' smart shutdown.
		kill -TERM "$pid"
	) &
	local client=$!
	traced setpriv --reuid=nobody --regid=nogroup --init-groups \
		$bin/postgres -D "$W/pg" -k "$W/sock" -h 127.0.0.1 -p "$port"
	wait $client || broken "postgres never listened on 127.0.0.1:$port"
	grep -qx 42 query.out || broken "psql got no answer: $(cat query.out)"
}

# su as an init script uses it: PAM, the user look-ups, then the command.
cmd_su() {
	traced su -s /bin/sh nobody -c 'id -un'
}

cmd_ssh_keygen() {
	traced ssh-keygen -q -t ed25519 -N '' -C sweep -f "$W/id_ed25519"
}

cmd_openssl() {
	traced openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout key.pem -out cert.pem -days 1 -subj /CN=localhost
}

cmd_java_version() {
	traced java -version
}

cmd_java_program() {
	command -v javac >/dev/null || skip "no javac (a JDK)"
	cat > Sum.java <<-'EOF'
	import java.util.concurrent.*;
	public class Sum {
		public static void main(String[] a) throws Exception {
			ExecutorService pool = Executors.newFixedThreadPool(2);
			Future<Long> f = pool.submit(() -> {
				long s = 0;
				for (long i = 0; i < 300_000_000L; i++) s += i % 7;
				return s;
			});
			System.out.println("sum " + f.get());
			pool.shutdown();
		}
	}
	EOF
	javac Sum.java || broken "javac failed"
	traced java -cp . Sum
}

# A one-second run: the JVM's helper threads wait for work all along.
cmd_java_sleep() {
	command -v javac >/dev/null || skip "no javac (a JDK)"
	printf 'public class Pause {\n\tpublic static void main(String[] a) throws Exception {\n\t\tThread.sleep(1000);\n\t\tSystem.out.println("done");\n\t}\n}\n' > Pause.java
	javac Pause.java || broken "javac failed"
	traced java -cp . Pause
}

# javac is a Java program too, with a second of start-up and compiling.
cmd_javac() {
	printf 'public class Hello {\n\tpublic static void main(String[] a) {\n\t\tSystem.out.println("hello");\n\t}\n}\n' > Hello.java
	traced javac -d classes Hello.java
}

# A fault the program means: a lazily filled store maps a small file and
# reserves the page after it with no access; its SIGSEGV handler makes
# that page readable and returns, as a JVM's does for its polling page
# (which the kernel may place right after a locale file's mapping).
cmd_guard_page() {
	cat > lazy.c <<-'EOF'
	#include <fcntl.h>
	#include <signal.h>
	#include <stdint.h>
	#include <stdio.h>
	#include <string.h>
	#include <sys/mman.h>
	#include <unistd.h>

	static void on_fault(int sig, siginfo_t *si, void *uc)
	{
		(void)sig, (void)uc;
		uintptr_t page = (uintptr_t)si->si_addr & ~(uintptr_t)4095;
		mprotect((void *)page, 4096, PROT_READ | PROT_WRITE);
	}

	int main(void)
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_fault;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSEGV, &sa, NULL);
		int fd = open("index.txt", O_RDONLY);
		if (fd < 0)
			return 1;
		/* Two pages with no access; the file goes into the first,
		 * the second stays no access until first touched. */
		char *p = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || mmap(p, 258, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) != p)
			return 1;
		close(fd);
		volatile char *next = p + 4096;
		printf("%c %d\n", p[0], next[0]);
		return 0;
	}
	EOF
	cc -O2 -o lazy lazy.c || broken "cc failed"
	head -c 258 /etc/services > index.txt
	traced ./lazy
}

cmd_gunicorn() {
	local port
	port=$(free_port)
	printf 'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/")\ndef index():\n    return "hello\\n"\n' > hello.py
	(
		pid=$(listener "$port") || exit 1
		curl -sf --max-time 10 "http://127.0.0.1:$port/" > page.out || :
		curl -sf --max-time 10 "http://127.0.0.1:$port/" >> page.out || :
		# The master listens: SIGTERM is its graceful stop.
		kill -TERM "$pid"
	) &
	local client=$!
	traced gunicorn --workers 2 --bind "127.0.0.1:$port" --chdir "$W" hello:app
	wait $client || broken "gunicorn never listened on 127.0.0.1:$port"
	grep -q hello page.out || broken "curl got no page from gunicorn"
}

cmd_flask_run() {
	local port
	port=$(free_port)
	printf 'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/")\ndef index():\n    return "hello\\n"\n' > hello.py
	(
		pid=$(listener "$port") || exit 1
		curl -sf --max-time 10 "http://127.0.0.1:$port/" > page.out || :
		kill -INT "$pid"
	) &
	local client=$!
	traced "$PY" -m flask --app hello run --host 127.0.0.1 --port "$port"
	wait $client || broken "flask never listened on 127.0.0.1:$port"
	grep -q hello page.out || broken "curl got no page from flask"
}

cmd_haproxy_c() {
	local port
	port=$(free_port)
	cat > haproxy.cfg <<-EOF
	global
		maxconn 64
	defaults
		mode http
		timeout connect 1s
		timeout client 5s
		timeout server 5s
	frontend web
		bind 127.0.0.1:$port
		default_backend app
	backend app
		server a 127.0.0.1:9 check
	EOF
	traced haproxy -c -f haproxy.cfg
}

cmd_du() {
	traced du -s /usr/share/doc
}

