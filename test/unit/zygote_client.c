/* The zygote's launcher as a native program (test/unit/zygote.py): the same protocol and
 * behaviour as its Python client (zygote.CLIENT), without the ~0.03 s of CPU a Python
 * start costs for each of the run's thousands of commands (lit's RUN lines, LLVM's
 * workers).  zygote.py compiles it once per run where a C compiler is found (else the
 * Python client is used), with the start timeout defined on the command line
 * (ZYGOTE_TIMEOUT), and puts a copy beside each zygote's socket: the program finds the
 * socket (zygote.sock) and the file a zygote that could not start leaves (failed) in its
 * own directory.
 *
 * The request: {"argv": [...], "cwd": "...", "env": {...}} as JSON (bytes that are not
 * UTF-8 go as they are: the zygote decodes them as the Python client encodes them,
 * "surrogateescape"), after its length (8 bytes, little-endian) sent with descriptors
 * 0, 1 and 2; the answer: the exit status (8 bytes, signed), minus the signal that
 * killed the command. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void fail(const char *what) {
    fprintf(stderr, "launcher: %s\n", what);
    _exit(125);
}

static char *buf;
static size_t len, cap;

static void put(const char *s, size_t n) {
    if (len + n > cap) {
        cap = 2 * (len + n) + 4096;
        buf = realloc(buf, cap);
        if (!buf)
            fail("out of memory");
    }
    memcpy(buf + len, s, n);
    len += n;
}

static void put_string(const char *s, size_t n) {
    put("\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            put(esc, 6);
        } else {
            put((const char *)&c, 1);
        }
    }
    put("\"", 1);
}


static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* the path of NAME in this program's own directory */
static char *beside(const char *self, const char *name) {
    const char *slash = strrchr(self, '/');
    size_t d = slash ? (size_t)(slash - self) + 1 : 0;
    char *path = malloc(d + strlen(name) + 1);
    if (!path)
        fail("out of memory");
    memcpy(path, self, d);
    strcpy(path + d, name);
    return path;
}

int main(int argc, char **argv) {
    char self[4096];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0 || (size_t)k >= sizeof self - 1) {
        if (strlen(argv[0]) >= sizeof self)
            fail("cannot find the launcher's own path");
        strcpy(self, argv[0]);
    } else {
        self[k] = 0;
    }
    const char *sock = beside(self, "zygote.sock"), *failed_file = beside(self, "failed");
    put("{\"argv\": [", 10);
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            put(", ", 2);
        put_string(argv[i], strlen(argv[i]));
    }
    char *cwd = getcwd(NULL, 0);
    if (!cwd)
        fail("cannot read the working directory");
    put("], \"cwd\": ", 10);
    put_string(cwd, strlen(cwd));
    put(", \"env\": {", 10);
    int first = 1;
    for (char **e = environ; *e; e++) {
        /* as Python's os.environ: NAME=VALUE, the name not empty */
        char *eq = strchr(*e + 1, '=');
        if (!**e || !eq)
            continue;
        if (!first)
            put(", ", 2);
        first = 0;
        put_string(*e, (size_t)(eq - *e));
        put(": ", 2);
        put_string(eq + 1, strlen(eq + 1));
    }
    put("}}", 2);

    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0)
        fail("cannot make a socket");
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(sock) >= sizeof addr.sun_path)
        fail("the socket's path is too long");
    strcpy(addr.sun_path, sock);
    double deadline = now() + ZYGOTE_TIMEOUT;
    while (connect(s, (struct sockaddr *)&addr, sizeof addr) != 0) {  /* still importing */
        struct stat st;
        int failed = stat(failed_file, &st) == 0;
        if ((errno != ENOENT && errno != ECONNREFUSED) || failed || now() > deadline) {
            char why[4096] = "no answer";
            FILE *f = failed ? fopen(failed_file, "r") : NULL;
            if (f) {
                why[fread(why, 1, sizeof why - 1, f)] = 0;
                fclose(f);
            }
            fprintf(stderr, "launcher: the zygote at %s did not start: %s\n", sock,
                    why);
            _exit(125);
        }
        struct timespec pause = {0, 20000000};
        nanosleep(&pause, NULL);
    }

    uint64_t n = len;  /* little-endian: the machines that run the suite */
    int fds[3] = {0, 1, 2};
    char control[CMSG_SPACE(sizeof fds)];
    memset(control, 0, sizeof control);
    struct iovec iov = {&n, sizeof n};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                         .msg_controllen = sizeof control};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(c), fds, sizeof fds);
    if (sendmsg(s, &msg, 0) != (ssize_t)sizeof n)
        fail("cannot send the command to the zygote");
    for (size_t sent = 0; sent < len;) {
        k = send(s, buf + sent, len - sent, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            fail("cannot send the command to the zygote");
        sent += (size_t)k;
    }

    int64_t code;
    size_t got = 0;
    while (got < sizeof code) {
        k = recv(s, (char *)&code + got, sizeof code - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            fail("the zygote ended the command without a status");
        got += (size_t)k;
    }
    if (code < 0) {
        signal((int)-code, SIG_DFL);
        kill(getpid(), (int)-code);
    }
    _exit((int)code);
}
