/* SPDX-License-Identifier: GPL-2.0 */
/* The receive demux: packets of a plane to their connection (demux.c). */
#ifndef __MRC_DEMUX_H
#define __MRC_DEMUX_H

#include <linux/types.h>

struct mrc_pkt;
struct mrc_plane;
struct net;
struct sk_buff;
struct sock;

void mrc_demux_input(struct mrc_plane *pl, struct sk_buff *skb, bool ce);
void mrc_demux_backlog(struct net *net, struct sk_buff *skb);
void mrc_demux_backlog_drain(struct sock *sk);
void *mrc_demux_take(const struct mrc_pkt *pkt);
int mrc_demux_rcv(struct sock *sk, struct sk_buff *skb);
int mrc_demux_err_lookup(struct sock *sk, struct sk_buff *skb);
void mrc_demux_err(struct sock *sk, struct sk_buff *skb, unsigned int udp_offset);

#endif /* __MRC_DEMUX_H */
