// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag path serve: the peer side of `path test`. It listens on the TCP
 * control port and forks one process per session (at most --max-sessions at
 * once, the rest refused with a reason), which answers the tester's stages
 * (path/pathsrv.c) and logs one line when it ends. SIGINT/SIGTERM end the
 * running sessions, then serve.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../host/source.h"
#include "../path/pathproto.h"
#include "../path/pathsrv.h"
#include "common.h"
#include "output.h"
#include "path.h"

#define MAX_SESSIONS 64

struct server {
	int lfd;
	unsigned max_sessions, idle_ms, port;
	bool once;
	const char *bind;		/* NULL: both families */
	const char *listening_on;	/* for the log line */
	const char *dev;
	unsigned dev_port;
	int gid_index;
	pid_t pids[MAX_SESSIONS];
	unsigned active, done;
	int last_status;
};

__attribute__((format(printf, 1, 2))) static void serve_log(const char *fmt, ...)
{
	char line[512];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;
	int n;

	localtime_r(&now, &tm);
	n = (int)strftime(line, sizeof(line), "%Y-%m-%d %H:%M:%S ", &tm);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* One write per line: children log concurrently. With -j the log goes
	 * to stderr: stdout holds the document alone, for a JSON parser. */
	if (write(out_is_json() ? STDERR_FILENO : STDOUT_FILENO, line, (size_t)n) < 0)
		return;
}

/* --bind is checked before anything else runs: a usage error, not a failure to listen. */
static bool bind_addr_ok(const char *addr)
{
	struct in6_addr a;

	if (inet_pton(AF_INET, addr, &a) == 1 || inet_pton(AF_INET6, addr, &a) == 1)
		return true;
	usage_error("--bind: '%s' is not an IP address of this host (as in 192.168.1.10 or ::)", addr);
	return false;
}

/* A listening socket on addr:port; -errno when it cannot be had. "::" listens on
 * both families (V6ONLY off, whatever net.ipv6.bindv6only says). */
static int listen_on(const char *addr, unsigned port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	char ps[16];
	int one = 1, off = 0, fd, err = 0;

	snprintf(ps, sizeof(ps), "%u", port);
	if (getaddrinfo(addr, ps, &hints, &ai))
		return -EINVAL;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		err = errno;
	else if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
		 (!strcmp(addr, "::") && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off))) ||
		 bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64))
		err = errno;
	freeaddrinfo(ai);
	if (err && fd >= 0)
		close(fd);
	return err ? -err : fd;
}

/* IPv6 switched off in this kernel (ipv6.disable=1, no ipv6 module): socket() or bind() of :: says so. */
static bool ipv6_unavailable(int err)
{
	return err == -EAFNOSUPPORT || err == -EADDRNOTAVAIL || err == -EPROTONOSUPPORT;
}

static int serve_listen(struct server *sv)
{
	const char *addr = sv->bind ? sv->bind : "::";
	int fd = listen_on(addr, sv->port);

	if (!sv->bind && ipv6_unavailable(fd)) {
		/* The default asks for both families; a kernel without IPv6 still serves IPv4. */
		addr = "0.0.0.0";
		fd = listen_on(addr, sv->port);
		sv->listening_on = "every IPv4 address (IPv6 is off in this kernel)";
	} else if (!sv->bind) {
		sv->listening_on = "every IPv4 and IPv6 address";
	} else {
		sv->listening_on = sv->bind;
	}
	if (fd == -EINVAL) {
		usage_error("--bind: '%s' is not an IP address", addr);
		return EXIT_USAGE;
	}
	if (fd < 0) {
		char what[160];

		snprintf(what, sizeof(what), "cannot listen on %s port %u: %s", addr, sv->port, strerror(-fd));
		report_error(what, fd == -EADDRINUSE ? "another program (another path serve?) uses the port" :
			     fd == -EADDRNOTAVAIL ? "no interface of this host has that address" :
			     fd == -EAFNOSUPPORT ? "IPv6 is off in this kernel" : NULL,
			     "pick another --port or --bind");
		return EXIT_HOST;
	}
	sv->lfd = fd;
	return 0;
}

static void peer_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	struct sockaddr_storage a = *ss;

	pp_unmap_v4(&a);
	pp_addr_port_str(&a, buf, len);
}

static void run_child(struct server *sv, int fd, const char *peer)
{
	struct ps_opts o = { .dev = sv->dev, .port = sv->dev_port, .gid_index = sv->gid_index,
			     .mode = path_poll_mode(PQ_HYBRID), .lat_mode = path_poll_mode(PQ_BUSY),
			     .idle_timeout_ms = sv->idle_ms, .stop = &path_stop };
	char summary[320];
	uint64_t t0 = pp_now_us();
	int rc;

	close(sv->lfd);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	rc = ps_session(fd, &o, summary, sizeof(summary));
	close(fd);
	serve_log("session %s: %s (%.2f s)", peer, summary, (pp_now_us() - t0) / 1e6);
	_exit(rc ? 1 : 0);
}

static void reap(struct server *sv)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (unsigned i = 0; i < MAX_SESSIONS; i++)
			if (sv->pids[i] == pid) {
				sv->pids[i] = 0;
				sv->active--;
				sv->done++;
				sv->last_status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
				if (WIFSIGNALED(status))
					serve_log("session process %d killed by signal %d", (int)pid, WTERMSIG(status));
			}
}

static void accept_one(struct server *sv)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char peer[96], busy[128];
	int fd = accept4(sv->lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);
	pid_t pid;

	if (fd < 0)
		return;
	peer_str(&ss, peer, sizeof(peer));
	if (sv->active >= sv->max_sessions || (sv->once && sv->active + sv->done > 0)) {
		snprintf(busy, sizeof(busy), "busy: %u sessions running (--max-sessions %u)", sv->active,
			 sv->max_sessions);
		pp_send_error(fd, EBUSY, busy);
		close(fd);
		serve_log("session %s: rejected: %s", peer, busy);
		return;
	}
	pid = fork();
	if (pid == 0)
		run_child(sv, fd, peer);
	close(fd);
	if (pid < 0) {
		serve_log("session %s: rejected: fork: %s", peer, strerror(errno));
		return;
	}
	for (unsigned i = 0; i < MAX_SESSIONS; i++)
		if (!sv->pids[i]) {
			sv->pids[i] = pid;
			break;
		}
	sv->active++;
}

static void stop_children(struct server *sv)
{
	int64_t deadline = pp_now_ms() + 3000;

	for (unsigned i = 0; i < MAX_SESSIONS; i++)
		if (sv->pids[i])
			kill(sv->pids[i], SIGTERM);
	while (sv->active && pp_now_ms() < deadline) {
		usleep(20000);
		reap(sv);
	}
	for (unsigned i = 0; i < MAX_SESSIONS; i++)
		if (sv->pids[i])
			kill(sv->pids[i], SIGKILL);
	while (sv->active && waitpid(-1, NULL, 0) > 0)
		sv->active--;
}

static int serve_loop(struct server *sv)
{
	while (!path_stop) {
		struct pollfd p = { .fd = sv->lfd, .events = POLLIN };

		reap(sv);
		if (sv->once && sv->done)
			break;
		if (poll(&p, 1, 200) > 0 && (p.revents & POLLIN))
			accept_one(sv);
	}
	if (path_stop)
		serve_log("stopping: ending %u running sessions", sv->active);
	stop_children(sv);
	close(sv->lfd);
	return sv->once && sv->done ? (sv->last_status ? EXIT_PROBLEM : EXIT_OK) : EXIT_OK;
}

int path_serve(struct cmd_ctx *ctx)
{
	struct server sv = { .lfd = -1, .gid_index = -1 };
	const struct opt_value *v;
	static struct dev_port dp;
	int rc;

	sv.port = ctx_opt_uint(ctx, O_PORT, PP_DEFAULT_PORT);
	sv.max_sessions = ctx_opt_uint(ctx, O_MAX_SESSIONS, 4);
	sv.idle_ms = ctx_opt_uint(ctx, O_IDLE_TIMEOUT, 30) * 1000;
	sv.once = ctx_opt(ctx, O_ONCE)->set;
	sv.bind = ctx_opt(ctx, O_BIND)->set ? ctx_opt_str(ctx, O_BIND, NULL) : NULL;
	v = ctx_opt(ctx, O_DEV);
	if (v->set) {
		if (parse_dev_port(v->str, &dp))
			return EXIT_USAGE;
		sv.dev = dp.dev;
		sv.dev_port = dp.port ? dp.port : 1;
	}
	v = ctx_opt(ctx, O_GID_INDEX);
	if (v->set)
		sv.gid_index = (int)v->num;
	if (sv.bind && !bind_addr_ok(sv.bind))
		return EXIT_USAGE;
	/* it answers with this host's live devices, as path test sends with them:
	 * a recording cannot stand in, and serving one would serve the host's */
	if (source_replaying()) {
		usage_error("path serve answers with this host's live RDMA devices and cannot run from a replay or "
			    "snapshot; run it on the host");
		return EXIT_USAGE;
	}
	if (!path_host_has_rdma_device())
		return report_no_rdma();
	rc = serve_listen(&sv);
	if (rc)
		return rc;
	path_catch_stop_signals();
	signal(SIGCHLD, SIG_DFL);
	serve_log("listening on %s port %u (at most %u sessions, idle timeout %u s)", sv.listening_on, sv.port,
		  sv.max_sessions, sv.idle_ms / 1000);
	return serve_loop(&sv);
}

const struct cmd_opt path_serve_opts[] = {
	OPT_PORT,
	{ .id = O_BIND, .kind = OPT_STR, .metavar = "ADDR",
	  .help = "local address to listen on (default: every IPv4 and IPv6 address)", .complete = COMPLETE_HOST },
	{ .id = O_ONCE, .kind = OPT_FLAG, .help = "exit after one session; exit status is the session's" },
	{ .id = O_MAX_SESSIONS, .kind = OPT_UINT, .metavar = "N",
	  .help = "sessions at once, more are refused (default 4)", .min = 1, .max = MAX_SESSIONS },
	{ .id = O_IDLE_TIMEOUT, .kind = OPT_UINT, .metavar = "S",
	  .help = "end a session silent for this long (default 30)", .min = 1, .max = 3600 },
	{ .id = O_DEV, .kind = OPT_STR, .metavar = "DEV[/PORT]",
	  .help = "device to answer on (default: the one owning the address reached)", .complete = COMPLETE_DEV_PORT },
	{ .id = O_GID_INDEX, .kind = OPT_UINT, .metavar = "N",
	  .help = "GID index to use (default: the RoCE v2 GID of the address reached)", .max = 255 },
	{ 0 },
};
