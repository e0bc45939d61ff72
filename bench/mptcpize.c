// SPDX-License-Identifier: GPL-2.0
/*
 * libmptcpize.so: an unmodified program's TCP sockets become MPTCP ones,
 * for the MPTCP rows of P11 (selftests/mrc_torch.sh, MRC_TORCH_MPTCP=1):
 *
 *   LD_PRELOAD=build/userspace/bench/libmptcpize.so CMD...
 *
 * mptcpd's mptcpize does this, but Debian 12 packages no mptcpd. Like
 * its libmptcpwrap, only socket() is wrapped: AF_INET or AF_INET6,
 * SOCK_STREAM, protocol 0 or IPPROTO_TCP asks for IPPROTO_MPTCP; every
 * other socket is untouched. No fallback here: with MPTCP disabled
 * (net.mptcp.enabled=0) socket() fails, so a run can not pass for
 * MPTCP while being TCP (the kernel itself still falls back to TCP for
 * a peer that does not answer in MPTCP, as with mptcpize).
 */
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

/* The system call itself, as glibc's socket() is: no dlsym() needed. */
int socket(int domain, int type, int protocol)
{
	if ((domain == AF_INET || domain == AF_INET6) &&
	    (type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) == SOCK_STREAM &&
	    (protocol == 0 || protocol == IPPROTO_TCP))
		protocol = IPPROTO_MPTCP;
	return (int)syscall(SYS_socket, domain, type, protocol);
}
