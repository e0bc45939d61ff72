/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrcize's pure parts, free of interposition so the host tests can call
 * them: sockaddr_in/in6 <-> sockaddr_mrc, the port list of MRCIZE_PORTS,
 * and the read+write copy that stands in for sendfile()/splice() when the
 * kernel refuses them on an AF_MRC socket.
 */
#ifndef MRCIZE_ADDR_H
#define MRCIZE_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <linux/mrc.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * mrcize_to_mrc - the sockaddr_mrc for a program's TCP address.
 * @sa, @len:	what the program passed to bind() or connect()
 * @domain:	the family the program created the socket with
 * @mrc_family:	the live AF_MRC number
 * @out:	filled on success
 *
 * A v4-mapped IPv6 address becomes an IPv4 one. Return: 0, -EINVAL for a
 * short or NULL address, -EAFNOSUPPORT for a family the socket cannot take
 * (as TCP would).
 */
int mrcize_to_mrc(const struct sockaddr *sa, socklen_t len, int domain, int mrc_family,
		  struct sockaddr_mrc *out);

/*
 * mrcize_from_mrc - the address the program expects back from accept(),
 * getsockname() or getpeername().
 * @m:		the kernel's answer
 * @domain:	the family the program created the socket with; an AF_INET6
 *		socket gets IPv4 peers as v4-mapped addresses, an unbound
 *		socket (no address family yet) gets the wildcard of @domain
 * @out:	filled with a sockaddr_in or sockaddr_in6
 *
 * Return: the length of the address written to @out.
 */
socklen_t mrcize_from_mrc(const struct sockaddr_mrc *m, int domain,
			  struct sockaddr_storage *out);

/*
 * mrcize_copy_out - hand @len bytes of @src to a caller's (@dst, @dstlen)
 * pair with the kernel's truncation rule: copy at most *@dstlen bytes,
 * then set *@dstlen to the full length.
 */
void mrcize_copy_out(const void *src, socklen_t len, struct sockaddr *dst, socklen_t *dstlen);

/* Is @sa (of length @len) a loopback address (127/8, ::1, ::ffff:127/104)? */
bool mrcize_is_loopback(const struct sockaddr *sa, socklen_t len);

/* The port of a sockaddr_in/in6, host order; -1 if it is neither. */
int mrcize_port(const struct sockaddr *sa, socklen_t len);

/* MRCIZE_PORTS: "5201,6379,7000-7100"; up to MRCIZE_MAX_RANGES ranges. */
#define MRCIZE_MAX_RANGES 32
struct mrcize_ports {
	int n;		/* 0: every port */
	unsigned short lo[MRCIZE_MAX_RANGES];
	unsigned short hi[MRCIZE_MAX_RANGES];
};

/* Return: 0, or -EINVAL for a malformed list (then @out means all ports). */
int mrcize_ports_parse(const char *spec, struct mrcize_ports *out);
bool mrcize_ports_match(const struct mrcize_ports *p, int port);

/*
 * mrcize_copy_file - sendfile() by read()+write(): up to @count bytes from
 * @in (at *@off if @off, which is then advanced; else from and advancing
 * the file position, handing back what could not be written) to @out.
 * Return: bytes written, or -1 with errno when none was.
 */
ssize_t mrcize_copy_file(int out, int in, off_t *off, size_t count);

/*
 * mrcize_copy_stream - splice() between a pipe and a socket by
 * read()+write(): reads at most @len bytes once, then writes all of them,
 * waiting for room if it must (the bytes are already out of @in).
 * Return: bytes moved, or -1 with errno.
 */
ssize_t mrcize_copy_stream(int out, int in, size_t len, bool nonblock);

#ifdef __cplusplus
}
#endif

#endif /* MRCIZE_ADDR_H */
