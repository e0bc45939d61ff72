/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network namespace's table of peer hosts: for each, what its
 * connections there learned of the paths (struct mrc_core_peer_paths),
 * handed to the next connection to it (the core's peer.c says what a
 * connection does with it).
 *
 * A peer is found by any of its plane addresses: the one connect()
 * names, or the one a SYN came from; a connection that gets established
 * adds every plane address the peer advertised.
 *
 * Off unless net.mrc.peer_paths is 1: a connection made while it is 0
 * neither takes nor reports anything. Why off by default: "last packet
 * lost" marks an EV bad for the next connection, so after random or
 * congestion losses new connections start with many EVs out and probe
 * them (a fresh-clone make check's mrc_inject saw the extra probe
 * replies), and what a dead path's EV looks like needs tuning first.
 *
 * Lifetime: every connection holds a reference on its peer
 * (conn->peer), from mrc_conn_create() to mrc_conn_kill(). An entry no
 * connection holds stays MRC_PEER_LINGER for the next one (a ring
 * all-reduce's step opens as the last closes), then the sweep frees it;
 * netns exit frees them all, after its connections are killed. At most
 * MRC_PEER_MAX entries a netns (about 1.2 KiB each, not charged as
 * connection memory): past that, connections go without.
 *
 * Locking: mrc_net.peers_lock (BH) guards the table, every entry and its
 * count of holders; it nests inside conn->lock (the core's notes learn
 * under it), never the other way round.
 */
#ifndef __MRC_PEER_H
#define __MRC_PEER_H

#include <linux/list.h>
#include <linux/types.h>

#include "core/mrc_core.h"

#define MRC_PEER_LINGER		(60 * HZ)
#define MRC_PEER_MAX		4096
#define MRC_PEER_HASH_BITS	8

struct mrc_net;
struct mrc_conn;

int mrc_peer_net_init(struct mrc_net *mn);
void mrc_peer_net_exit(struct mrc_net *mn);

/* The peer @addr belongs to, made if none; referenced. NULL if none. */
struct mrc_peer *mrc_peer_get(struct mrc_net *mn,
			      const struct mrc_core_plane *addr);
void mrc_peer_put(struct mrc_net *mn, struct mrc_peer *peer);
/*
 * A copy of what @peer learned, for mrc_core_cfg.peer_paths (kfree() it
 * after mrc_core_create()); NULL if nothing yet or no memory.
 */
struct mrc_core_peer_paths *mrc_peer_seed(struct mrc_net *mn,
					  struct mrc_peer *peer);
/*
 * @conn's core reports: all it knows (@ev < 0: at ESTABLISHED, which
 * also adds the peer's plane addresses, and at its end) or EV @ev's
 * state (its notes). Under conn->lock.
 */
void mrc_peer_learn(struct mrc_conn *conn, int ev, bool established);

/* One peer as mrc_peer_walk() shows it; valid only inside the callback. */
struct mrc_peer_view {
	const struct in6_addr		*addrs;		/* IPv4 as mapped */
	u32				naddrs;
	u32				holders;
	u32				idle_ms;	/* 0 while held */
	const struct mrc_core_peer_paths *paths;
};

/*
 * mrc_peer_walk - @fn on each peer from the @*pos-th on, under peers_lock
 * (BHs off: @fn must not sleep), until @fn returns nonzero; @*pos is left
 * at that peer, else past the last. Entries come and go between walks:
 * a dump that resumes at @*pos may miss or repeat one, as dumps do.
 * Return: @fn's nonzero result, or 0.
 */
int mrc_peer_walk(struct mrc_net *mn, unsigned long *pos,
		  int (*fn)(void *arg, const struct mrc_peer_view *v),
		  void *arg);

#endif /* __MRC_PEER_H */
