/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Connections as the control plane sees them. The data path creates them
 * in mrc_net.conns and fills these fields; netlink reads them.
 */
#ifndef __MRC_CONN_H
#define __MRC_CONN_H

#include <linux/in6.h>
#include <linux/types.h>

struct mrc_conn {
	u32		id;
	u8		state;		/* enum mrc_conn_state */
	u16		local_port;
	u16		peer_port;
	bool		peer_is_v6;
	__be32		peer_addr4;
	struct in6_addr	peer_addr6;
	u32		ev_profile;
	u32		cc_profile;
};

#endif /* __MRC_CONN_H */
