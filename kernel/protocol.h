/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the kernel-only files of mrc.ko: the socket
 * family, per-netns state and module-wide settings.
 */
#ifndef __MRC_PROTOCOL_H
#define __MRC_PROTOCOL_H

#include <net/sock.h>
#include <linux/mrc.h>

#include "mib.h"

#define MRC_MODULE_VERSION	"0.1.0"

/* Address family in use, set once by the "family" module parameter. */
extern int mrc_family;

/*
 * struct mrc_sock - an AF_MRC socket.
 * @sk: the generic socket; must stay first so sk_alloc() can size us
 *
 * Connection state joins here with the data path; until then the socket
 * only exists, accounts itself and answers every call with a proper error.
 */
struct mrc_sock {
	struct sock sk;
};

static inline struct mrc_sock *mrc_sk(const struct sock *sk)
{
	return (struct mrc_sock *)sk;
}

/*
 * struct mrc_net - per network namespace state.
 * @mib: per-cpu counters, see mib.h
 *
 * Allocated by the pernet subsystem, lives exactly as long as the netns.
 */
struct mrc_net {
	struct mrc_mib __percpu *mib;
};

extern struct proto mrc_prot;

struct mrc_net *mrc_pernet(const struct net *net);

int mrc_pernet_init(void);
void mrc_pernet_exit(void);

int mrc_socket_init(void);
void mrc_socket_exit(void);

#endif /* __MRC_PROTOCOL_H */
