// SPDX-License-Identifier: GPL-2.0
/*
 * mrcize's pure parts: address translation both ways, the MRCIZE_PORTS
 * list, and the read+write copies behind the sendfile()/splice()
 * fallbacks. No interposition here (see mrcize.c).
 */
#include "addr.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MRCIZE_COPY_CHUNK 65536

static const unsigned char mrcize_v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

int mrcize_to_mrc(const struct sockaddr *sa, socklen_t len, int domain, int mrc_family,
		  struct sockaddr_mrc *out)
{
	const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

	if (!sa)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->mrc_family = (__kernel_sa_family_t)mrc_family;
	if (domain == AF_INET) {
		if (len < sizeof(struct sockaddr_in))
			return -EINVAL;
		if (sa->sa_family != AF_INET)
			return -EAFNOSUPPORT;
		out->mrc_port = in4->sin_port;
		out->mrc_addr_family = AF_INET;
		out->mrc_addr4 = in4->sin_addr.s_addr;
		return 0;
	}
	if (domain != AF_INET6)
		return -EAFNOSUPPORT;
	/* SIN6_LEN_RFC2133: the old sockaddr_in6 without a scope id. */
	if (len < 24)
		return -EINVAL;
	if (sa->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	out->mrc_port = in6->sin6_port;
	if (!memcmp(in6->sin6_addr.s6_addr, mrcize_v4mapped, sizeof(mrcize_v4mapped))) {
		out->mrc_addr_family = AF_INET;
		memcpy(&out->mrc_addr4, in6->sin6_addr.s6_addr + 12, 4);
		return 0;
	}
	out->mrc_addr_family = AF_INET6;
	memcpy(out->mrc_addr6, in6->sin6_addr.s6_addr, 16);
	if (len >= sizeof(struct sockaddr_in6))
		out->mrc_scope_id = in6->sin6_scope_id;
	return 0;
}

socklen_t mrcize_from_mrc(const struct sockaddr_mrc *m, int domain, struct sockaddr_storage *out)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)out;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;
	int fam = m->mrc_addr_family;

	memset(out, 0, sizeof(*out));
	if (fam != AF_INET && fam != AF_INET6)
		fam = domain == AF_INET6 ? AF_INET6 : AF_INET; /* unbound: the wildcard */
	if (fam == AF_INET && domain != AF_INET6) {
		in4->sin_family = AF_INET;
		in4->sin_port = m->mrc_port;
		if (m->mrc_addr_family == AF_INET)
			in4->sin_addr.s_addr = m->mrc_addr4;
		return sizeof(*in4);
	}
	in6->sin6_family = AF_INET6;
	in6->sin6_port = m->mrc_port;
	if (m->mrc_addr_family == AF_INET) {
		memcpy(in6->sin6_addr.s6_addr, mrcize_v4mapped, sizeof(mrcize_v4mapped));
		memcpy(in6->sin6_addr.s6_addr + 12, &m->mrc_addr4, 4);
	} else if (m->mrc_addr_family == AF_INET6) {
		memcpy(in6->sin6_addr.s6_addr, m->mrc_addr6, 16);
		in6->sin6_scope_id = m->mrc_scope_id;
	}
	return sizeof(*in6);
}

void mrcize_copy_out(const void *src, socklen_t len, struct sockaddr *dst, socklen_t *dstlen)
{
	if (!dst || !dstlen)
		return;
	memcpy(dst, src, len < *dstlen ? len : *dstlen);
	*dstlen = len;
}

bool mrcize_is_loopback(const struct sockaddr *sa, socklen_t len)
{
	const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
	const unsigned char *a6;

	if (!sa || len < sizeof(sa_family_t))
		return false;
	if (sa->sa_family == AF_INET && len >= sizeof(*in4))
		return (ntohl(in4->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family != AF_INET6 || len < 24)
		return false;
	a6 = in6->sin6_addr.s6_addr;
	if (!memcmp(a6, mrcize_v4mapped, sizeof(mrcize_v4mapped)))
		return a6[12] == 127;
	return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
}

int mrcize_port(const struct sockaddr *sa, socklen_t len)
{
	if (!sa || len < sizeof(sa_family_t))
		return -1;
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in))
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	if (sa->sa_family == AF_INET6 && len >= 24)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return -1;
}

static int mrcize_parse_port(const char *s, char **end)
{
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, end, 10);
	if (errno || v < 1 || v > 65535)
		return -1;
	return (int)v;
}

int mrcize_ports_parse(const char *spec, struct mrcize_ports *out)
{
	const char *s = spec;
	char *end;
	int lo, hi;

	out->n = 0;
	if (!spec || !*spec)
		return 0;
	for (;;) {
		lo = mrcize_parse_port(s, &end);
		if (lo < 0)
			goto bad;
		hi = lo;
		if (*end == '-') {
			hi = mrcize_parse_port(end + 1, &end);
			if (hi < lo)
				goto bad;
		}
		if (out->n == MRCIZE_MAX_RANGES)
			goto bad;
		out->lo[out->n] = (unsigned short)lo;
		out->hi[out->n] = (unsigned short)hi;
		out->n++;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			goto bad;
		s = end + 1;
	}
bad:
	out->n = 0;
	return -EINVAL;
}

bool mrcize_ports_match(const struct mrcize_ports *p, int port)
{
	int i;

	if (!p->n)
		return true;
	for (i = 0; i < p->n; i++)
		if (port >= p->lo[i] && port <= p->hi[i])
			return true;
	return false;
}

/* Write all of @buf unless the socket would block or fails: bytes written. */
static size_t mrcize_write_some(int fd, const char *buf, size_t len, int *err)
{
	size_t done = 0;
	ssize_t n;

	*err = 0;
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*err = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	return done;
}

ssize_t mrcize_copy_file(int out, int in, off_t *off, size_t count)
{
	size_t done = 0, want, wrote;
	char *buf;
	ssize_t n;
	int err = 0;

	buf = malloc(MRCIZE_COPY_CHUNK);
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	while (done < count) {
		want = count - done < MRCIZE_COPY_CHUNK ? count - done : MRCIZE_COPY_CHUNK;
		n = off ? pread(in, buf, want, *off) : read(in, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		wrote = mrcize_write_some(out, buf, (size_t)n, &err);
		if (off)
			*off += (off_t)wrote;
		else if (wrote < (size_t)n)
			lseek(in, -(off_t)((size_t)n - wrote), SEEK_CUR);
		done += wrote;
		if (wrote < (size_t)n)
			break;
		err = 0;
	}
	free(buf);
	if (!done && err) {
		errno = err;
		return -1;
	}
	return (ssize_t)done;
}

ssize_t mrcize_copy_stream(int out, int in, size_t len, bool nonblock)
{
	struct pollfd pfd = { .fd = out, .events = POLLOUT };
	size_t done = 0;
	char *buf;
	ssize_t n;
	int err;

	if (len > MRCIZE_COPY_CHUNK)
		len = MRCIZE_COPY_CHUNK;
	buf = malloc(len ? len : 1);
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	do {
		n = nonblock ? recv(in, buf, len, MSG_DONTWAIT) : read(in, buf, len);
		if (n < 0 && errno == ENOTSOCK)
			n = read(in, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n <= 0) {
		err = errno;
		free(buf);
		errno = err;
		return n;
	}
	/* The bytes have left @in: they must all reach @out. */
	while (done < (size_t)n) {
		done += mrcize_write_some(out, buf + done, (size_t)n - done, &err);
		if (done < (size_t)n && err != EAGAIN) {
			free(buf);
			errno = err;
			return done ? (ssize_t)done : -1;
		}
		if (done < (size_t)n)
			poll(&pfd, 1, -1);
	}
	free(buf);
	return n;
}
