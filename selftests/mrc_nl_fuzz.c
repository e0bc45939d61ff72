// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "mrc" against hostile requests, over raw
 * NETLINK_GENERIC sockets with extended ACKs. Every command of the uapi
 * enum, do and dump, gets seeded random and malformed requests: unknown
 * types, wrong lengths and types, bad nesting, out-of-range values,
 * duplicates, huge counts, random bytes, missing attributes, truncated and
 * lying headers. Every refused request must be answered with an error,
 * with an extack message once it got past the netlink core's framing and
 * permission checks, and must leave planes and profiles as they were.
 * Then privileges (no CAP_NET_ADMIN, root of a user namespace) and
 * isolation from another network namespace, with and without a user
 * namespace.
 *
 *   netns A (fuzzed; a live connection        netns B (the peer)
 *   for CONN_GET and PATH_*)
 *   +---------------------------------+      +-----------------------------+
 *   | plane 0: va0 10.201.0.1/24 <-----veth-----> vb0 10.201.0.2/24 plane 0 |
 *   | plane 1: va1 10.201.1.1/24 <-----veth-----> vb1 10.201.1.2/24 plane 1 |
 *   | EV profiles 1 explicit OFFLINE, |      | AF_MRC listener on 7100     |
 *   |   2 generated ONLINE, 3 INIT    |      +-----------------------------+
 *   | CC profiles 1 OFFLINE, 2 ONLINE |
 *   +---------------------------------+
 *
 * MRC_NL_FUZZ_SEED replays a run (the seed is printed); MRC_NL_FUZZ_ITERS
 * sets the random requests per command (default 150: about 2,800 in all,
 * well under a minute under TCG); MRC_NL_FUZZ_VERBOSE=1 lists the extack
 * messages seen.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <linux/mrc_netlink.h>

#include "kselftest_harness.h"
#include "mrc_lib.h"

#define MRC_FZ_ITERS_DEFAULT	150
#define MRC_FZ_BUF		61440	/* < 64K: a nest's length fits nla_len */
#define MRC_FZ_PORT		7100
#define MRC_FZ_MAX_LOGGED	20	/* failures printed in full */
#define MRC_FZ_MAX_PROFILES	24	/* restore the fixture beyond that */

/* ---- what the uapi says: attribute schemas and commands ---- */

enum mrc_fz_kind {
	MRC_FZ_NONE,		/* no meaning: random bytes */
	MRC_FZ_U8,
	MRC_FZ_U16,
	MRC_FZ_U32,
	MRC_FZ_BE32,		/* an IPv4 address */
	MRC_FZ_U64,
	MRC_FZ_IN6,
	MRC_FZ_STR,
	MRC_FZ_FLAG,
	MRC_FZ_NEST,
	MRC_FZ_ARRAY,		/* nest of nests of the same schema */
};

/* Values of the fixture a request should name now and then. */
enum mrc_fz_pool {
	MRC_FZ_POOL_NONE,
	MRC_FZ_POOL_PLANE,	/* plane ids */
	MRC_FZ_POOL_IFINDEX,	/* lo, va0, va1 */
	MRC_FZ_POOL_EVP,	/* EV profile ids */
	MRC_FZ_POOL_CCP,	/* CC profile ids */
	MRC_FZ_POOL_CONN,	/* connection ids */
	MRC_FZ_POOL_EV,		/* EV values of the connection */
	MRC_FZ_POOL_SMALL,	/* 0..4: EV indexes and counts */
	MRC_FZ_POOL_ADDR4,
	MRC_FZ_POOL_PORT,
	MRC_FZ_NPOOLS
};

struct mrc_fz_obj;

struct mrc_fz_attr {
	const char		*name;
	enum mrc_fz_kind	kind;
	uint32_t		min, max;	/* valid values of an integer */
	enum mrc_fz_pool	pool;
	const struct mrc_fz_obj	*nested;
	unsigned int		reply_only:1;	/* strict policies refuse it */
	unsigned int		unstable:1;	/* moves by itself: not in snapshots */
};

struct mrc_fz_obj {
	const char		*name;
	int			maxtype;
	const struct mrc_fz_attr *attrs;	/* [1 .. maxtype] */
};

#define MRC_FZ_OBJ(_name, _max, _attrs) \
	{ .name = _name, .maxtype = _max, .attrs = _attrs }
#define MRC_FZ_RO(_name, _kind) \
	{ .name = _name, .kind = _kind, .reply_only = 1 }
#define MRC_FZ_INT(_name, _kind, _min, _max) \
	{ .name = _name, .kind = _kind, .min = _min, .max = _max }
#define MRC_FZ_STATS { .name = "stats", .kind = MRC_FZ_NEST, \
		       .reply_only = 1, .unstable = 1 }

static const struct mrc_fz_obj mrc_fz_info, mrc_fz_ev;

static const struct mrc_fz_attr mrc_fz_info_attrs[MRC_INFO_ATTR_MAX + 1] = {
	[MRC_INFO_ATTR_VERSION]		= MRC_FZ_RO("version", MRC_FZ_STR),
	[MRC_INFO_ATTR_FAMILY]		= MRC_FZ_RO("family", MRC_FZ_U32),
	[MRC_INFO_ATTR_API_VERSION]	= MRC_FZ_RO("api", MRC_FZ_U32),
	[MRC_INFO_ATTR_CAPS]		= MRC_FZ_RO("caps", MRC_FZ_U32),
	[MRC_INFO_ATTR_MAX_PLANES]	= MRC_FZ_RO("max-planes", MRC_FZ_U32),
	[MRC_INFO_ATTR_MAX_EV_PROFILES]	= MRC_FZ_RO("max-evps", MRC_FZ_U32),
	[MRC_INFO_ATTR_MAX_EVS]		= MRC_FZ_RO("max-evs", MRC_FZ_U32),
	[MRC_INFO_ATTR_MAX_CC_PROFILES]	= MRC_FZ_RO("max-ccps", MRC_FZ_U32),
	[MRC_INFO_ATTR_EV_MAX_BITS]	= MRC_FZ_RO("ev-bits", MRC_FZ_U32),
	[MRC_INFO_ATTR_CC_ALGORITHMS]	= { .name = "algs", .kind = MRC_FZ_NEST,
					    .nested = &mrc_fz_info, .reply_only = 1 },
	[MRC_INFO_ATTR_CC_ALGORITHM]	= MRC_FZ_RO("alg", MRC_FZ_STR),
};

static const struct mrc_fz_obj mrc_fz_info =
	MRC_FZ_OBJ("info", MRC_INFO_ATTR_MAX, mrc_fz_info_attrs);

static const struct mrc_fz_attr mrc_fz_offload_attrs[MRC_OFFLOAD_ATTR_MAX + 1] = {
	[MRC_OFFLOAD_ATTR_MODE]		= MRC_FZ_INT("mode", MRC_FZ_U8, 0, MRC_OFFLOAD_ON),
	[MRC_OFFLOAD_ATTR_STATE]	= MRC_FZ_RO("state", MRC_FZ_U8),
	[MRC_OFFLOAD_ATTR_DRIVER]	= MRC_FZ_RO("driver", MRC_FZ_STR),
	[MRC_OFFLOAD_ATTR_API_VERSION]	= MRC_FZ_RO("api", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_FEATURES]	= MRC_FZ_RO("features", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_EV_TABLE_SIZE] = MRC_FZ_RO("ev-table", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_MAX_CONNS]	= MRC_FZ_RO("max-conns", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_CC_ALGOS]	= MRC_FZ_RO("cc-algos", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_MAX_SEGMENT]	= MRC_FZ_RO("max-segment", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_CONNS]	= { .name = "conns", .kind = MRC_FZ_U32,
					    .reply_only = 1, .unstable = 1 },
	[MRC_OFFLOAD_ATTR_HOOK]		= MRC_FZ_RO("hook", MRC_FZ_STR),
	[MRC_OFFLOAD_ATTR_ERROR]	= MRC_FZ_RO("error", MRC_FZ_U32),
	[MRC_OFFLOAD_ATTR_STATS]	= MRC_FZ_STATS,
};

static const struct mrc_fz_obj mrc_fz_offload =
	MRC_FZ_OBJ("offload", MRC_OFFLOAD_ATTR_MAX, mrc_fz_offload_attrs);

static const struct mrc_fz_attr mrc_fz_plane_attrs[MRC_PLANE_ATTR_MAX + 1] = {
	[MRC_PLANE_ATTR_ID]	 = { "id", MRC_FZ_U32, 0, MRC_MAX_PLANES - 1,
				     MRC_FZ_POOL_PLANE },
	[MRC_PLANE_ATTR_IFINDEX] = { "ifindex", MRC_FZ_U32, 1, 1 << 16,
				     MRC_FZ_POOL_IFINDEX },
	[MRC_PLANE_ATTR_IFNAME]	 = MRC_FZ_RO("ifname", MRC_FZ_STR),
	[MRC_PLANE_ATTR_ADDR4]	 = { "addr4", MRC_FZ_BE32, .pool = MRC_FZ_POOL_ADDR4 },
	[MRC_PLANE_ATTR_ADDR6]	 = { "addr6", MRC_FZ_IN6 },
	[MRC_PLANE_ATTR_PORT]	 = { "port", MRC_FZ_U16, 1, 65535, MRC_FZ_POOL_PORT },
	[MRC_PLANE_ATTR_STATE]	 = MRC_FZ_INT("state", MRC_FZ_U8, 0, MRC_PLANE_STATE_DENIED),
	[MRC_PLANE_ATTR_LINK]	 = MRC_FZ_RO("link", MRC_FZ_U8),
	[MRC_PLANE_ATTR_WEIGHT]	 = MRC_FZ_INT("weight", MRC_FZ_U32, 1, MRC_PLANE_WEIGHT_MAX),
	[MRC_PLANE_ATTR_MTU]	 = MRC_FZ_INT("mtu", MRC_FZ_U32, MRC_PLANE_MTU_MIN,
					      MRC_PLANE_MTU_MAX),
	[MRC_PLANE_ATTR_STATS]	 = MRC_FZ_STATS,
	[MRC_PLANE_ATTR_PAD]	 = MRC_FZ_RO("pad", MRC_FZ_NONE),
	[MRC_PLANE_ATTR_OFFLOAD] = { .name = "offload", .kind = MRC_FZ_NEST,
				     .nested = &mrc_fz_offload },
};

static const struct mrc_fz_attr mrc_fz_ev_attrs[MRC_EV_ATTR_MAX + 1] = {
	[MRC_EV_ATTR_INDEX] = { "index", MRC_FZ_U32, 0, MRC_MAX_EVS_PER_PROFILE - 1,
				MRC_FZ_POOL_SMALL },
	[MRC_EV_ATTR_VALUE] = { "value", MRC_FZ_U32, 0, (1 << MRC_EV_MAX_BITS) - 1,
				MRC_FZ_POOL_EV },
	[MRC_EV_ATTR_PLANE] = { "plane", MRC_FZ_U32, 0, MRC_MAX_PLANES - 1,
				MRC_FZ_POOL_PLANE },
	[MRC_EV_ATTR_STATE] = MRC_FZ_INT("state", MRC_FZ_U8, 0, MRC_EV_UNPOPULATED),
};

static const struct mrc_fz_obj mrc_fz_ev =
	MRC_FZ_OBJ("ev", MRC_EV_ATTR_MAX, mrc_fz_ev_attrs);

static const struct mrc_fz_attr mrc_fz_evp_attrs[MRC_EV_PROFILE_ATTR_MAX + 1] = {
	[MRC_EV_PROFILE_ATTR_ID]	= { "id", MRC_FZ_U32, 1, MRC_MAX_EV_PROFILES,
					    MRC_FZ_POOL_EVP },
	[MRC_EV_PROFILE_ATTR_STATE]	= MRC_FZ_INT("state", MRC_FZ_U8, 0, MRC_PROFILE_ONLINE),
	[MRC_EV_PROFILE_ATTR_MODE]	= MRC_FZ_INT("mode", MRC_FZ_U8, 0, MRC_EV_MODE_GENERATED),
	[MRC_EV_PROFILE_ATTR_EV_COUNT]	= { "count", MRC_FZ_U32, 1, MRC_MAX_EVS_PER_PROFILE,
					    MRC_FZ_POOL_SMALL },
	[MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE] = { "min-active", MRC_FZ_U32, 0,
						MRC_MAX_EVS_PER_PROFILE, MRC_FZ_POOL_SMALL },
	[MRC_EV_PROFILE_ATTR_EVENT_MASK] = MRC_FZ_INT("event-mask", MRC_FZ_U32, 0, 0xf),
	[MRC_EV_PROFILE_ATTR_SEED]	= MRC_FZ_INT("seed", MRC_FZ_U32, 0, UINT32_MAX),
	[MRC_EV_PROFILE_ATTR_EVS]	= { .name = "evs", .kind = MRC_FZ_ARRAY,
					    .nested = &mrc_fz_ev },
	[MRC_EV_PROFILE_ATTR_EV]	= { .name = "ev", .kind = MRC_FZ_NEST,
					    .nested = &mrc_fz_ev },
	[MRC_EV_PROFILE_ATTR_USERS]	= MRC_FZ_RO("users", MRC_FZ_U32),
};

static const struct mrc_fz_attr mrc_fz_nscc_attrs[MRC_NSCC_ATTR_MAX + 1] = {
	[MRC_NSCC_ATTR_BASE_RTT]	= MRC_FZ_INT("base-rtt", MRC_FZ_U32, 1, UINT32_MAX),
	[MRC_NSCC_ATTR_TARGET_DELAY]	= MRC_FZ_INT("target-delay", MRC_FZ_U32, 1, UINT32_MAX),
	[MRC_NSCC_ATTR_MAX_CWND]	= MRC_FZ_INT("max-cwnd", MRC_FZ_U32, 1500, UINT32_MAX),
	[MRC_NSCC_ATTR_ETA]		= MRC_FZ_INT("eta", MRC_FZ_U32, 0, UINT32_MAX),
	[MRC_NSCC_ATTR_FI]		= MRC_FZ_INT("fi", MRC_FZ_U32, 0, UINT32_MAX),
	[MRC_NSCC_ATTR_FI_SCALE]	= MRC_FZ_INT("fi-scale", MRC_FZ_U32, 0, UINT32_MAX),
	[MRC_NSCC_ATTR_GAMMA]		= MRC_FZ_INT("gamma", MRC_FZ_U32, 0, 1000000),
	[MRC_NSCC_ATTR_MAX_MD_JUMP]	= MRC_FZ_INT("max-md-jump", MRC_FZ_U32, 0, 1000000),
	[MRC_NSCC_ATTR_QA_GATE]		= MRC_FZ_INT("qa-gate", MRC_FZ_U8, 0, 255),
	[MRC_NSCC_ATTR_QA_THRESHOLD]	= MRC_FZ_INT("qa-threshold", MRC_FZ_U32, 0, UINT32_MAX),
	[MRC_NSCC_ATTR_DISABLE_QA]	= MRC_FZ_INT("disable-qa", MRC_FZ_U8, 0, 1),
	[MRC_NSCC_ATTR_ADJUST_BYTES]	= MRC_FZ_INT("adjust-bytes", MRC_FZ_U32, 0, UINT32_MAX),
	[MRC_NSCC_ATTR_ADJUST_PERIOD]	= MRC_FZ_INT("adjust-period", MRC_FZ_U32, 0, UINT32_MAX),
};

static const struct mrc_fz_obj mrc_fz_nscc =
	MRC_FZ_OBJ("nscc", MRC_NSCC_ATTR_MAX, mrc_fz_nscc_attrs);

static const struct mrc_fz_attr mrc_fz_ccp_attrs[MRC_CC_PROFILE_ATTR_MAX + 1] = {
	[MRC_CC_PROFILE_ATTR_ID]	= { "id", MRC_FZ_U32, 1, MRC_MAX_CC_PROFILES,
					    MRC_FZ_POOL_CCP },
	[MRC_CC_PROFILE_ATTR_STATE]	= MRC_FZ_INT("state", MRC_FZ_U8, 0, MRC_PROFILE_ONLINE),
	[MRC_CC_PROFILE_ATTR_ALGORITHM]	= { .name = "algorithm", .kind = MRC_FZ_STR },
	[MRC_CC_PROFILE_ATTR_NSCC]	= { .name = "nscc", .kind = MRC_FZ_NEST,
					    .nested = &mrc_fz_nscc },
	[MRC_CC_PROFILE_ATTR_USERS]	= MRC_FZ_RO("users", MRC_FZ_U32),
};

static const struct mrc_fz_attr mrc_fz_conn_attrs[MRC_CONN_ATTR_MAX + 1] = {
	[MRC_CONN_ATTR_ID]		= { "id", MRC_FZ_U32, 0, UINT32_MAX, MRC_FZ_POOL_CONN },
	[MRC_CONN_ATTR_STATE]		= MRC_FZ_RO("state", MRC_FZ_U8),
	[MRC_CONN_ATTR_LOCAL_PORT]	= MRC_FZ_RO("local-port", MRC_FZ_U16),
	[MRC_CONN_ATTR_PEER_PORT]	= MRC_FZ_RO("peer-port", MRC_FZ_U16),
	[MRC_CONN_ATTR_PEER_ADDR4]	= MRC_FZ_RO("peer-addr4", MRC_FZ_BE32),
	[MRC_CONN_ATTR_PEER_ADDR6]	= MRC_FZ_RO("peer-addr6", MRC_FZ_IN6),
	[MRC_CONN_ATTR_EV_PROFILE]	= MRC_FZ_RO("ev-profile", MRC_FZ_U32),
	[MRC_CONN_ATTR_CC_PROFILE]	= MRC_FZ_RO("cc-profile", MRC_FZ_U32),
	[MRC_CONN_ATTR_STATS]		= MRC_FZ_STATS,
	[MRC_CONN_ATTR_PAD]		= MRC_FZ_RO("pad", MRC_FZ_NONE),
};

static const struct mrc_fz_attr mrc_fz_path_attrs[MRC_PATH_ATTR_MAX + 1] = {
	[MRC_PATH_ATTR_CONN_ID]		= { "conn", MRC_FZ_U32, 0, UINT32_MAX,
					    MRC_FZ_POOL_CONN },
	[MRC_PATH_ATTR_EV_PROFILE]	= MRC_FZ_RO("ev-profile", MRC_FZ_U32),
	[MRC_PATH_ATTR_EV]		= { "ev", MRC_FZ_U32, 0, (1 << MRC_EV_MAX_BITS) - 1,
					    MRC_FZ_POOL_EV },
	[MRC_PATH_ATTR_PLANE]		= { "plane", MRC_FZ_U32, 0, MRC_MAX_PLANES - 1,
					    MRC_FZ_POOL_PLANE },
	[MRC_PATH_ATTR_STATE]		= { .name = "state", .kind = MRC_FZ_U8,
					    .max = MRC_EV_UNPOPULATED, .unstable = 1 },
	[MRC_PATH_ATTR_PROBING]		= { .name = "probing", .kind = MRC_FZ_FLAG,
					    .reply_only = 1, .unstable = 1 },
	[MRC_PATH_ATTR_RTT_US]		= { .name = "rtt", .kind = MRC_FZ_U32,
					    .reply_only = 1, .unstable = 1 },
	[MRC_PATH_ATTR_STATS]		= MRC_FZ_STATS,
	[MRC_PATH_ATTR_PAD]		= MRC_FZ_RO("pad", MRC_FZ_NONE),
};

static const struct mrc_fz_obj mrc_fz_plane =
	MRC_FZ_OBJ("plane", MRC_PLANE_ATTR_MAX, mrc_fz_plane_attrs);
static const struct mrc_fz_obj mrc_fz_evp =
	MRC_FZ_OBJ("ev-profile", MRC_EV_PROFILE_ATTR_MAX, mrc_fz_evp_attrs);
static const struct mrc_fz_obj mrc_fz_ccp =
	MRC_FZ_OBJ("cc-profile", MRC_CC_PROFILE_ATTR_MAX, mrc_fz_ccp_attrs);
static const struct mrc_fz_obj mrc_fz_conn =
	MRC_FZ_OBJ("conn", MRC_CONN_ATTR_MAX, mrc_fz_conn_attrs);
static const struct mrc_fz_obj mrc_fz_path =
	MRC_FZ_OBJ("path", MRC_PATH_ATTR_MAX, mrc_fz_path_attrs);

/* The top level of every request and reply. */
static const struct mrc_fz_attr mrc_fz_top_attrs[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_INFO]		= { .name = "info", .kind = MRC_FZ_NEST,
				    .nested = &mrc_fz_info },
	[MRC_ATTR_PLANE]	= { .name = "plane", .kind = MRC_FZ_NEST,
				    .nested = &mrc_fz_plane },
	[MRC_ATTR_EV_PROFILE]	= { .name = "ev-profile", .kind = MRC_FZ_NEST,
				    .nested = &mrc_fz_evp },
	[MRC_ATTR_CC_PROFILE]	= { .name = "cc-profile", .kind = MRC_FZ_NEST,
				    .nested = &mrc_fz_ccp },
	[MRC_ATTR_CONN]		= { .name = "conn", .kind = MRC_FZ_NEST,
				    .nested = &mrc_fz_conn },
	[MRC_ATTR_PATH]		= { .name = "path", .kind = MRC_FZ_NEST,
				    .nested = &mrc_fz_path },
	[MRC_ATTR_STATS]	= MRC_FZ_STATS,
	[MRC_ATTR_EVENT_REASON]	= MRC_FZ_RO("reason", MRC_FZ_U8),
	[MRC_ATTR_PAD]		= MRC_FZ_RO("pad", MRC_FZ_NONE),
	/* a dump's answer only; its idle time moves between dumps */
	[MRC_ATTR_PEER]		= { .name = "peer", .kind = MRC_FZ_NEST,
				    .reply_only = 1, .unstable = 1 },
};

static const struct mrc_fz_obj mrc_fz_top =
	MRC_FZ_OBJ("top", MRC_ATTR_MAX, mrc_fz_top_attrs);

#define B(x) (1u << (x))

/*
 * Each command of enum mrc_cmd as the uapi documents it: the nest it
 * takes, the attributes a request usually names, which variants exist and
 * whether it changes state. Sized by the enum: a command added there and
 * not here fails ops_match_the_uapi.
 */
struct mrc_fz_cmd {
	const char	*name;
	int		obj;		/* MRC_ATTR_* nest it takes, 0: none */
	uint32_t	want;		/* attributes of that nest */
	bool		has_do;
	bool		has_dump;
	bool		changes;	/* changes state: needs CAP_NET_ADMIN */
	bool		creates;	/* makes an object, names none */
};

static const struct mrc_fz_cmd mrc_fz_cmds[MRC_CMD_MAX + 1] = {
	[MRC_CMD_INFO_GET] = { .name = "INFO_GET", .has_do = true },
	[MRC_CMD_PLANE_ADD] = { .name = "PLANE_ADD", .obj = MRC_ATTR_PLANE,
		.want = B(MRC_PLANE_ATTR_IFINDEX), .has_do = true, .changes = true },
	[MRC_CMD_PLANE_DEL] = { .name = "PLANE_DEL", .obj = MRC_ATTR_PLANE,
		.want = B(MRC_PLANE_ATTR_ID), .has_do = true, .changes = true },
	[MRC_CMD_PLANE_GET] = { .name = "PLANE_GET", .obj = MRC_ATTR_PLANE,
		.want = B(MRC_PLANE_ATTR_ID), .has_do = true, .has_dump = true },
	[MRC_CMD_PLANE_SET] = { .name = "PLANE_SET", .obj = MRC_ATTR_PLANE,
		.want = B(MRC_PLANE_ATTR_ID), .has_do = true, .changes = true },
	[MRC_CMD_EV_PROFILE_NEW] = { .name = "EV_PROFILE_NEW",
		.obj = MRC_ATTR_EV_PROFILE,
		.want = B(MRC_EV_PROFILE_ATTR_MODE) | B(MRC_EV_PROFILE_ATTR_EV_COUNT),
		.has_do = true, .changes = true, .creates = true },
	[MRC_CMD_EV_PROFILE_SET] = { .name = "EV_PROFILE_SET",
		.obj = MRC_ATTR_EV_PROFILE, .want = B(MRC_EV_PROFILE_ATTR_ID),
		.has_do = true, .changes = true },
	[MRC_CMD_EV_PROFILE_GET] = { .name = "EV_PROFILE_GET",
		.obj = MRC_ATTR_EV_PROFILE, .want = B(MRC_EV_PROFILE_ATTR_ID),
		.has_do = true, .has_dump = true },
	[MRC_CMD_EV_PROFILE_DEL] = { .name = "EV_PROFILE_DEL",
		.obj = MRC_ATTR_EV_PROFILE, .want = B(MRC_EV_PROFILE_ATTR_ID),
		.has_do = true, .changes = true },
	[MRC_CMD_CC_PROFILE_NEW] = { .name = "CC_PROFILE_NEW",
		.obj = MRC_ATTR_CC_PROFILE, .want = B(MRC_CC_PROFILE_ATTR_ALGORITHM),
		.has_do = true, .changes = true, .creates = true },
	[MRC_CMD_CC_PROFILE_SET] = { .name = "CC_PROFILE_SET",
		.obj = MRC_ATTR_CC_PROFILE, .want = B(MRC_CC_PROFILE_ATTR_ID),
		.has_do = true, .changes = true },
	[MRC_CMD_CC_PROFILE_GET] = { .name = "CC_PROFILE_GET",
		.obj = MRC_ATTR_CC_PROFILE, .want = B(MRC_CC_PROFILE_ATTR_ID),
		.has_do = true, .has_dump = true },
	[MRC_CMD_CC_PROFILE_DEL] = { .name = "CC_PROFILE_DEL",
		.obj = MRC_ATTR_CC_PROFILE, .want = B(MRC_CC_PROFILE_ATTR_ID),
		.has_do = true, .changes = true },
	[MRC_CMD_CONN_GET] = { .name = "CONN_GET", .obj = MRC_ATTR_CONN,
		.want = B(MRC_CONN_ATTR_ID), .has_do = true, .has_dump = true },
	[MRC_CMD_PATH_GET] = { .name = "PATH_GET", .obj = MRC_ATTR_PATH,
		.want = B(MRC_PATH_ATTR_CONN_ID), .has_dump = true },
	[MRC_CMD_PATH_SET] = { .name = "PATH_SET", .obj = MRC_ATTR_PATH,
		.want = B(MRC_PATH_ATTR_CONN_ID) | B(MRC_PATH_ATTR_EV) |
			B(MRC_PATH_ATTR_STATE), .has_do = true, .changes = true },
	[MRC_CMD_PATH_PROBE] = { .name = "PATH_PROBE", .obj = MRC_ATTR_PATH,
		.want = B(MRC_PATH_ATTR_CONN_ID) | B(MRC_PATH_ATTR_EV),
		.has_do = true, .changes = true },
	[MRC_CMD_STATS_GET] = { .name = "STATS_GET", .has_dump = true },
	[MRC_CMD_PEER_GET] = { .name = "PEER_GET", .has_dump = true },
};

/* Commands that are none of the family's: each must get EOPNOTSUPP. */
static const int mrc_fz_unknown_cmds[] = {
	MRC_CMD_UNSPEC, MRC_CMD_MAX + 1, 0x7f, MRC_EVENT_PLANE_NEW, 0xff,
};

static const char *mrc_fz_cmd_name(int cmd)
{
	static char buf[16];

	if (cmd > 0 && cmd <= MRC_CMD_MAX && mrc_fz_cmds[cmd].name)
		return mrc_fz_cmds[cmd].name;
	snprintf(buf, sizeof(buf), "cmd %d", cmd);
	return buf;
}

/* ---- seeded PRNG (splitmix64) ---- */

static uint64_t mrc_fz_seed, mrc_fz_prng;

static uint64_t mrc_fz_rand(void)
{
	uint64_t z = (mrc_fz_prng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t mrc_fz_below(uint32_t n)
{
	return n ? mrc_fz_rand() % n : 0;
}

static bool mrc_fz_chance(unsigned int percent)
{
	return mrc_fz_below(100) < percent;
}

/*
 * Seed from MRC_NL_FUZZ_SEED or the clock, picked once before the tests
 * fork and printed so that a run replays; every test starts from it.
 */
static void __attribute__((constructor)) mrc_fz_seed_pick(void)
{
	const char *env = getenv("MRC_NL_FUZZ_SEED");
	struct timespec ts;

	/* The harness ends tests with _exit(): nothing may wait in a buffer. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	mrc_fz_seed = env && *env ? strtoull(env, NULL, 0) :
		      (uint64_t)ts.tv_sec * 1000000007ULL ^ ts.tv_nsec ^ getpid();
}

static void mrc_fz_seed_init(void)
{
	mrc_fz_prng = mrc_fz_seed;
	printf("# seed %llu (MRC_NL_FUZZ_SEED=%llu replays it)\n",
	       (unsigned long long)mrc_fz_seed, (unsigned long long)mrc_fz_seed);
	fflush(stdout);
}

static unsigned int mrc_fz_iters(void)
{
	const char *env = getenv("MRC_NL_FUZZ_ITERS");
	long n = env ? strtol(env, NULL, 0) : 0;

	return n > 0 ? n : MRC_FZ_ITERS_DEFAULT;
}

/* ---- a growing string ---- */

struct mrc_fz_str {
	char	*p;
	size_t	len, cap;
};

static void mrc_fz_add(struct mrc_fz_str *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!s)
		return;
	for (;;) {
		if (s->cap - s->len < 64 || !s->p) {
			s->cap = s->cap ? s->cap * 2 : 4096;
			s->p = realloc(s->p, s->cap);
			if (!s->p)
				abort();
		}
		va_start(ap, fmt);
		n = vsnprintf(s->p + s->len, s->cap - s->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < s->cap - s->len) {
			s->len += n;
			return;
		}
		s->cap = s->cap * 2 + n;
		s->p = realloc(s->p, s->cap);
		if (!s->p)
			abort();
	}
}

static void mrc_fz_reset(struct mrc_fz_str *s)
{
	s->len = 0;
	mrc_fz_add(s, "%s", "");
}

static void mrc_fz_free(struct mrc_fz_str *s)
{
	free(s->p);
	memset(s, 0, sizeof(*s));
}

/* ---- building messages byte by byte ---- */

struct mrc_fz_msg {
	unsigned char	buf[MRC_FZ_BUF];
	size_t		len;
	size_t		attrs[512];	/* attribute header offsets */
	int		nattrs;
	bool		full;
	char		what[200];	/* the damage done, for the log */
};

static struct mrc_fz_msg mrc_fz_req, mrc_fz_tmp;
static unsigned char mrc_fz_rbuf[1 << 16];

static void mrc_fz_note(struct mrc_fz_msg *m, const char *fmt, ...)
{
	size_t len = strlen(m->what);
	va_list ap;

	if (len + 2 >= sizeof(m->what))
		return;
	if (len)
		m->what[len++] = ' ';
	va_start(ap, fmt);
	vsnprintf(m->what + len, sizeof(m->what) - len, fmt, ap);
	va_end(ap);
}

static void mrc_fz_hdr(struct mrc_fz_msg *m, uint16_t type, uint16_t flags,
		       uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;

	memset(nlh, 0, sizeof(*nlh));
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	m->len = NLMSG_HDRLEN;
	m->nattrs = 0;
	m->full = false;
	m->what[0] = '\0';
}

/* Append @len bytes (random ones if @data is NULL), 4-byte aligned. */
static void mrc_fz_raw(struct mrc_fz_msg *m, const void *data, size_t len)
{
	size_t i;

	if (m->len + NLA_ALIGN(len) > sizeof(m->buf)) {
		m->full = true;
		return;
	}
	for (i = 0; i < len; i++)
		m->buf[m->len + i] = data ? ((const unsigned char *)data)[i] :
					    mrc_fz_rand();
	memset(m->buf + m->len + len, 0, NLA_ALIGN(len) - len);
	m->len += NLA_ALIGN(len);
}

static void mrc_fz_genl(struct mrc_fz_msg *m, uint16_t family, uint16_t flags,
			uint32_t seq, uint8_t cmd)
{
	struct genlmsghdr g = { .cmd = cmd, .version = MRC_GENL_VERSION };

	mrc_fz_hdr(m, family, flags, seq);
	mrc_fz_raw(m, &g, sizeof(g));
}

/* An attribute of @len bytes of @data (random bytes if NULL). */
static size_t mrc_fz_put(struct mrc_fz_msg *m, uint16_t type, const void *data,
			 size_t len)
{
	struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };
	size_t off = m->len;

	if (m->full || off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->buf)) {
		m->full = true;
		return SIZE_MAX;
	}
	memcpy(m->buf + off, &nla, sizeof(nla));
	m->len += NLA_HDRLEN;
	mrc_fz_raw(m, data, len);
	if (m->nattrs < (int)ARRAY_SIZE(m->attrs))
		m->attrs[m->nattrs++] = off;
	return off;
}

static void mrc_fz_u8(struct mrc_fz_msg *m, uint16_t type, uint8_t v)
{
	mrc_fz_put(m, type, &v, sizeof(v));
}

static void mrc_fz_u16(struct mrc_fz_msg *m, uint16_t type, uint16_t v)
{
	mrc_fz_put(m, type, &v, sizeof(v));
}

static void mrc_fz_u32(struct mrc_fz_msg *m, uint16_t type, uint32_t v)
{
	mrc_fz_put(m, type, &v, sizeof(v));
}

static void mrc_fz_string(struct mrc_fz_msg *m, uint16_t type, const char *s)
{
	mrc_fz_put(m, type, s, strlen(s) + 1);
}

/* Open a nest of type @type (flags included); SIZE_MAX if no room. */
static size_t mrc_fz_nest_raw(struct mrc_fz_msg *m, uint16_t type)
{
	return mrc_fz_put(m, type, "", 0);
}

static size_t mrc_fz_nest(struct mrc_fz_msg *m, uint16_t type)
{
	return mrc_fz_nest_raw(m, type | NLA_F_NESTED);
}

static void mrc_fz_nest_end(struct mrc_fz_msg *m, size_t off)
{
	struct nlattr *nla;

	if (off == SIZE_MAX)
		return;
	nla = (struct nlattr *)(m->buf + off);
	nla->nla_len = m->len - off;
}

static size_t mrc_fz_end(struct mrc_fz_msg *m)
{
	((struct nlmsghdr *)m->buf)->nlmsg_len = m->len;
	return m->len;
}

/* ---- the fixture's values and the family's operations ---- */

static struct {
	uint32_t	v[MRC_FZ_NPOOLS][16];
	int		n[MRC_FZ_NPOOLS];
} mrc_fz_pools;

static void mrc_fz_pool_set(enum mrc_fz_pool pool, const uint32_t *v, int n)
{
	if (n > 16)
		n = 16;
	memcpy(mrc_fz_pools.v[pool], v, n * sizeof(*v));
	mrc_fz_pools.n[pool] = n;
}

/* What CTRL_CMD_GETFAMILY says about the family "mrc". */
static struct {
	uint16_t	id;
	bool		present[256];
	uint32_t	flags[256];	/* GENL_ADMIN_PERM, GENL_CMD_CAP_DO, ... */
	int		nops;
} mrc_fz_ops;

static bool mrc_fz_op_changes(int cmd)
{
	return mrc_fz_ops.flags[cmd & 0xff] & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM);
}

/* ---- sockets, requests and what comes back ---- */

struct mrc_fz_sock {
	int		fd;
	uint32_t	seq;
};

/* Values of attribute @a (and @b) of each @obj nest in the replies. */
struct mrc_fz_collect {
	int		obj, a, b;
	uint32_t	va[2048], vb[2048];
	int		n;
};

struct mrc_fz_resp {
	int		msgs;		/* messages with the request's seq */
	int		replies;	/* of them, genl replies or dump parts */
	int		stray;		/* messages with another seq */
	bool		multi;		/* answered as a dump */
	bool		done;		/* NLMSG_DONE came */
	bool		acked;		/* NLMSG_ERROR 0 */
	bool		has_err;
	int		err;		/* from NLMSG_ERROR or NLMSG_DONE */
	int		errors;		/* NLMSG_ERRORs with an error */
	char		msg[200];	/* NLMSGERR_ATTR_MSG, "" if none */
	int		send_err;
};

#define mrc_fz_for_each_attr(pos, head, len, rem)			\
	for (pos = (const struct nlattr *)(head), rem = (len);		\
	     rem >= (int)NLA_HDRLEN && pos->nla_len >= NLA_HDRLEN &&	\
	     pos->nla_len <= rem;					\
	     rem -= NLA_ALIGN(pos->nla_len),				\
	     pos = (const struct nlattr *)((const char *)pos + NLA_ALIGN(pos->nla_len)))

static uint32_t mrc_fz_get32(const struct nlattr *nla)
{
	uint32_t v = 0;

	if (nla->nla_len >= NLA_HDRLEN + 4)
		memcpy(&v, nla + 1, 4);
	else if (nla->nla_len >= NLA_HDRLEN + 2)
		memcpy(&v, nla + 1, 2);
	else if (nla->nla_len >= NLA_HDRLEN + 1)
		v = *(const uint8_t *)(nla + 1);
	return v;
}

static const struct nlattr *mrc_fz_find(const void *head, int len, int type)
{
	const struct nlattr *nla;
	int rem;

	mrc_fz_for_each_attr(nla, head, len, rem)
		if ((nla->nla_type & NLA_TYPE_MASK) == type)
			return nla;
	return NULL;
}

/* Canonical text of attributes: what a snapshot compares. */
static void mrc_fz_canon(struct mrc_fz_str *out, const struct mrc_fz_obj *o,
			 const void *head, int len)
{
	const struct nlattr *nla, *e;
	char addr[INET6_ADDRSTRLEN];
	int rem, erem, t, plen, i;

	mrc_fz_for_each_attr(nla, head, len, rem) {
		const struct mrc_fz_attr *a = NULL;
		const unsigned char *p = (const unsigned char *)(nla + 1);
		uint64_t v64;

		t = nla->nla_type & NLA_TYPE_MASK;
		plen = nla->nla_len - NLA_HDRLEN;
		if (o && t <= o->maxtype && o->attrs[t].name)
			a = &o->attrs[t];
		if (a && a->unstable)
			continue;
		if (a)
			mrc_fz_add(out, "%s=", a->name);
		else
			mrc_fz_add(out, "#%d=", t);
		switch (a ? a->kind : MRC_FZ_NONE) {
		case MRC_FZ_U8:
		case MRC_FZ_U16:
		case MRC_FZ_U32:
			mrc_fz_add(out, "%u", mrc_fz_get32(nla));
			break;
		case MRC_FZ_U64:
			v64 = 0;
			memcpy(&v64, p, plen < 8 ? plen : 8);
			mrc_fz_add(out, "%llu", (unsigned long long)v64);
			break;
		case MRC_FZ_BE32:
		case MRC_FZ_IN6:
			if (plen == 4 || plen == 16) {
				inet_ntop(plen == 4 ? AF_INET : AF_INET6, p, addr,
					  sizeof(addr));
				mrc_fz_add(out, "%s", addr);
				break;
			}
			goto hex;
		case MRC_FZ_STR:
			mrc_fz_add(out, "\"%.*s\"", (int)strnlen((const char *)p, plen), p);
			break;
		case MRC_FZ_FLAG:
			mrc_fz_add(out, "y");
			break;
		case MRC_FZ_NEST:
			mrc_fz_add(out, "{");
			mrc_fz_canon(out, a->nested, p, plen);
			mrc_fz_add(out, "}");
			break;
		case MRC_FZ_ARRAY:
			mrc_fz_add(out, "[");
			mrc_fz_for_each_attr(e, p, plen, erem) {
				mrc_fz_add(out, "{");
				mrc_fz_canon(out, a->nested, e + 1, e->nla_len - NLA_HDRLEN);
				mrc_fz_add(out, "}");
			}
			mrc_fz_add(out, "]");
			break;
		default:
hex:
			for (i = 0; i < plen; i++)
				mrc_fz_add(out, "%02x", p[i]);
		}
		mrc_fz_add(out, " ");
	}
}

/* Text of NLMSGERR_ATTR_MSG in the TLVs at @off of @nlh, if any. */
static void mrc_fz_extack(const struct nlmsghdr *nlh, size_t off,
			  struct mrc_fz_resp *r)
{
	const struct nlattr *nla;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	nla = mrc_fz_find((const char *)nlh + off, nlh->nlmsg_len - off,
			  NLMSGERR_ATTR_MSG);
	if (nla)
		snprintf(r->msg, sizeof(r->msg), "%.*s",
			 (int)strnlen((const char *)(nla + 1), nla->nla_len - NLA_HDRLEN),
			 (const char *)(nla + 1));
}

static void mrc_fz_collect(struct mrc_fz_collect *c, const void *head, int len)
{
	const struct nlattr *obj, *a, *b;

	obj = mrc_fz_find(head, len, c->obj);
	if (!obj || c->n >= 2048)
		return;
	a = mrc_fz_find(obj + 1, obj->nla_len - NLA_HDRLEN, c->a);
	b = c->b ? mrc_fz_find(obj + 1, obj->nla_len - NLA_HDRLEN, c->b) : NULL;
	if (!a)
		return;
	c->va[c->n] = mrc_fz_get32(a);
	c->vb[c->n] = b ? mrc_fz_get32(b) : UINT32_MAX;
	c->n++;
}

static void mrc_fz_resp_add(struct mrc_fz_resp *r, const struct nlmsghdr *nlh,
			    struct mrc_fz_str *canon, struct mrc_fz_collect *col)
{
	const struct nlmsgerr *e;
	size_t off;
	int err;

	r->msgs++;
	if (nlh->nlmsg_flags & NLM_F_MULTI)
		r->multi = true;
	switch (nlh->nlmsg_type) {
	case NLMSG_ERROR:
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
			break;
		e = NLMSG_DATA(nlh);
		if (!e->error) {
			r->acked = true;
			break;
		}
		r->has_err = true;
		r->err = e->error;
		r->errors++;
		off = NLMSG_HDRLEN + sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
		mrc_fz_extack(nlh, off, r);
		break;
	case NLMSG_DONE:
		r->done = true;
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(err))
			break;
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		if (err < 0) {
			r->has_err = true;
			r->err = err;
			mrc_fz_extack(nlh, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(err)), r);
		}
		break;
	default:
		r->replies++;
		if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
			break;
		if (canon) {
			mrc_fz_canon(canon, &mrc_fz_top,
				     (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
				     nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN);
			mrc_fz_add(canon, "\n");
		}
		if (col)
			mrc_fz_collect(col, (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
				       nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN);
	}
}

static int mrc_fz_open(struct mrc_fz_sock *s, int proto)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 10 };
	int one = 1, buf = 1 << 20;

	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);
	if (s->fd < 0)
		return -errno;
	s->seq = 1000;
	if (setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(s->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)) ||
	    setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(s->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(s->fd);
		return -errno;
	}
	setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	setsockopt(s->fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	return 0;
}

static void mrc_fz_close(struct mrc_fz_sock *s)
{
	if (s->fd > 0)
		close(s->fd);
	s->fd = -1;
}

static int mrc_fz_send(int fd, const void *buf, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (sendto(fd, buf, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

/*
 * Send @len bytes of @req (its seq is @seq), then a NOOP that only asks
 * for an ACK: everything with @seq that came before that ACK (and a dump
 * to its NLMSG_DONE) is the answer. Works for requests the kernel drops
 * or does not acknowledge. 0, or -errno when no answer came.
 */
static int mrc_fz_xfer(struct mrc_fz_sock *s, const void *req, size_t len,
		       uint32_t seq, struct mrc_fz_resp *r,
		       struct mrc_fz_str *canon, struct mrc_fz_collect *col)
{
	struct nlmsghdr sync = {
		.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = seq + 1,
	};
	const struct nlmsghdr *nlh;
	bool synced = false;
	int n, err;

	memset(r, 0, sizeof(*r));
	if (col)
		col->n = 0;
	r->send_err = mrc_fz_send(s->fd, req, len);
	err = mrc_fz_send(s->fd, &sync, sizeof(sync));
	if (err)
		return err;
	while (!synced || (r->multi && !r->done)) {
		n = recv(s->fd, mrc_fz_rbuf, sizeof(mrc_fz_rbuf), 0);
		if (n < 0)
			return -errno;
		for (nlh = (struct nlmsghdr *)mrc_fz_rbuf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq == seq + 1 && nlh->nlmsg_type == NLMSG_ERROR)
				synced = true;
			else if (nlh->nlmsg_seq == seq)
				mrc_fz_resp_add(r, nlh, canon, col);
			else
				r->stray++;
		}
	}
	return 0;
}

/*
 * The same for a well-formed request with NLM_F_ACK: its answer ends
 * with its ACK, its error or its NLMSG_DONE.
 */
static int mrc_fz_xfer_acked(struct mrc_fz_sock *s, const void *req, size_t len,
			     uint32_t seq, struct mrc_fz_resp *r,
			     struct mrc_fz_str *canon, struct mrc_fz_collect *col)
{
	const struct nlmsghdr *nlh;
	int n;

	memset(r, 0, sizeof(*r));
	if (col)
		col->n = 0;
	r->send_err = mrc_fz_send(s->fd, req, len);
	if (r->send_err)
		return r->send_err;
	while (!r->acked && !r->errors && !r->done) {
		n = recv(s->fd, mrc_fz_rbuf, sizeof(mrc_fz_rbuf), 0);
		if (n < 0)
			return -errno;
		for (nlh = (struct nlmsghdr *)mrc_fz_rbuf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq == seq)
				mrc_fz_resp_add(r, nlh, canon, col);
			else
				r->stray++;
		}
	}
	return 0;
}

/* The answer to the last mrc_fz_do(), for logs. */
static struct mrc_fz_resp mrc_fz_last;

/* Send a request built in @m; 0 or its negative errno (-EIO: no answer). */
static int mrc_fz_do(struct mrc_fz_sock *s, struct mrc_fz_msg *m,
		     struct mrc_fz_str *canon, struct mrc_fz_collect *col)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	struct mrc_fz_resp *r = &mrc_fz_last;

	nlh->nlmsg_seq = s->seq;
	nlh->nlmsg_flags |= NLM_F_ACK;
	s->seq += 2;
	if (m->full || mrc_fz_xfer_acked(s, m->buf, mrc_fz_end(m), nlh->nlmsg_seq, r,
					 canon, col))
		return -EIO;
	return r->has_err ? r->err : 0;
}

/* A request of the family: header, then the caller adds attributes. */
static void mrc_fz_req_init(struct mrc_fz_msg *m, int cmd, bool dump)
{
	mrc_fz_genl(m, mrc_fz_ops.id,
		    NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0), 0, cmd);
}

/* Ask the controller about "mrc": its id, commands and their flags. */
static int mrc_fz_resolve(struct mrc_fz_sock *s)
{
	const struct nlattr *ops, *op, *id, *fl;
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	const struct nlmsghdr *nlh;
	int rem, n, err;

	mrc_fz_genl(m, GENL_ID_CTRL, NLM_F_REQUEST, s->seq, CTRL_CMD_GETFAMILY);
	mrc_fz_string(m, CTRL_ATTR_FAMILY_NAME, MRC_GENL_NAME);
	err = mrc_fz_send(s->fd, m->buf, mrc_fz_end(m));
	s->seq += 2;
	if (err)
		return err;
	n = recv(s->fd, mrc_fz_rbuf, sizeof(mrc_fz_rbuf), 0);
	nlh = (struct nlmsghdr *)mrc_fz_rbuf;
	if (n < 0 || !NLMSG_OK(nlh, n) || nlh->nlmsg_type == NLMSG_ERROR)
		return -ENOENT;
	memset(&mrc_fz_ops, 0, sizeof(mrc_fz_ops));
	n = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	id = mrc_fz_find((const char *)NLMSG_DATA(nlh) + GENL_HDRLEN, n,
			 CTRL_ATTR_FAMILY_ID);
	ops = mrc_fz_find((const char *)NLMSG_DATA(nlh) + GENL_HDRLEN, n,
			  CTRL_ATTR_OPS);
	if (!id || !ops)
		return -ENOENT;
	mrc_fz_ops.id = mrc_fz_get32(id);
	mrc_fz_for_each_attr(op, ops + 1, ops->nla_len - NLA_HDRLEN, rem) {
		id = mrc_fz_find(op + 1, op->nla_len - NLA_HDRLEN, CTRL_ATTR_OP_ID);
		fl = mrc_fz_find(op + 1, op->nla_len - NLA_HDRLEN, CTRL_ATTR_OP_FLAGS);
		if (!id || mrc_fz_get32(id) > 255)
			continue;
		mrc_fz_ops.present[mrc_fz_get32(id)] = true;
		mrc_fz_ops.flags[mrc_fz_get32(id)] = fl ? mrc_fz_get32(fl) : 0;
		mrc_fz_ops.nops++;
	}
	return 0;
}

/* ---- rtnetlink: the veths between the namespaces ---- */

static int mrc_fz_veth(struct mrc_fz_sock *rt, const char *name,
		       const char *peer, int peer_ns)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t li, data, pi;

	mrc_fz_hdr(m, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
		   NLM_F_EXCL, 0);
	mrc_fz_raw(m, &ifi, sizeof(ifi));
	mrc_fz_string(m, IFLA_IFNAME, name);
	li = mrc_fz_nest(m, IFLA_LINKINFO);
	mrc_fz_string(m, IFLA_INFO_KIND, "veth");
	data = mrc_fz_nest(m, IFLA_INFO_DATA);
	pi = mrc_fz_nest(m, VETH_INFO_PEER);
	mrc_fz_raw(m, &ifi, sizeof(ifi));
	mrc_fz_string(m, IFLA_IFNAME, peer);
	mrc_fz_u32(m, IFLA_NET_NS_FD, peer_ns);
	mrc_fz_nest_end(m, pi);
	mrc_fz_nest_end(m, data);
	mrc_fz_nest_end(m, li);
	return mrc_fz_do(rt, m, NULL, NULL);
}

/* Bring @name up, with @addr/24 unless 0. */
static int mrc_fz_link_up(struct mrc_fz_sock *rt, const char *name, in_addr_t addr)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC, .ifi_flags = IFF_UP, .ifi_change = IFF_UP,
	};
	struct ifaddrmsg ifa = {
		.ifa_family = AF_INET, .ifa_prefixlen = 24,
		.ifa_scope = RT_SCOPE_UNIVERSE,
	};
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	int err;

	ifi.ifi_index = if_nametoindex(name);
	if (!ifi.ifi_index)
		return -ENODEV;
	mrc_fz_hdr(m, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, 0);
	mrc_fz_raw(m, &ifi, sizeof(ifi));
	err = mrc_fz_do(rt, m, NULL, NULL);
	if (err || !addr)
		return err;
	ifa.ifa_index = ifi.ifi_index;
	mrc_fz_hdr(m, RTM_NEWADDR, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
		   NLM_F_EXCL, 0);
	mrc_fz_raw(m, &ifa, sizeof(ifa));
	mrc_fz_put(m, IFA_LOCAL, &addr, sizeof(addr));
	mrc_fz_put(m, IFA_ADDRESS, &addr, sizeof(addr));
	return mrc_fz_do(rt, m, NULL, NULL);
}

/* ---- the fixture: two namespaces, planes, profiles, a connection ---- */

struct mrc_fz_ctx {
	struct mrc_fz_sock	sk;		/* genl, netns A */
	struct mrc_fz_sock	sk_b;		/* genl, netns B: its connections */
	int			ns_a, ns_b;
	uint32_t		ifindex[2];	/* va0, va1 */
	int			family;		/* AF_MRC */
	pid_t			server;
	int			conn_fd;
	uint32_t		conn_id;
	struct timespec		t0;		/* setup started */
	struct mrc_fz_str	base[3];	/* planes, EV, CC right after setup */
};

static in_addr_t mrc_fz_addr(int plane, int host)
{
	return htonl(0x0ac90000 | plane << 8 | host);	/* 10.201.plane.host */
}

static int mrc_fz_plane_add(struct mrc_fz_sock *s, uint32_t id,
			    uint32_t ifindex, in_addr_t addr)
{
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t nest;

	mrc_fz_req_init(m, MRC_CMD_PLANE_ADD, false);
	nest = mrc_fz_nest(m, MRC_ATTR_PLANE);
	mrc_fz_u32(m, MRC_PLANE_ATTR_ID, id);
	mrc_fz_u32(m, MRC_PLANE_ATTR_IFINDEX, ifindex);
	mrc_fz_put(m, MRC_PLANE_ATTR_ADDR4, &addr, sizeof(addr));
	mrc_fz_nest_end(m, nest);
	return mrc_fz_do(s, m, NULL, NULL);
}

static int mrc_fz_add_planes(struct mrc_fz_ctx *ctx)
{
	int i, err = 0;

	for (i = 0; i < 2 && !err; i++)
		err = mrc_fz_plane_add(&ctx->sk, i, ctx->ifindex[i], mrc_fz_addr(i, 1));
	return err;
}

/* EV 1 explicit OFFLINE, 2 generated ONLINE, 3 INIT; CC 1 OFFLINE, 2 ONLINE. */
static int mrc_fz_add_ev_profiles(struct mrc_fz_sock *s)
{
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t nest;
	int err;

	mrc_fz_req_init(m, MRC_CMD_EV_PROFILE_NEW, false);
	nest = mrc_fz_nest(m, MRC_ATTR_EV_PROFILE);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 1);
	mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_EXPLICIT);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EV_COUNT, 4);
	mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_STATE, MRC_PROFILE_OFFLINE);
	mrc_fz_nest_end(m, nest);
	err = mrc_fz_do(s, m, NULL, NULL);
	if (err)
		return err;

	mrc_fz_req_init(m, MRC_CMD_EV_PROFILE_NEW, false);
	nest = mrc_fz_nest(m, MRC_ATTR_EV_PROFILE);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 2);
	mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_GENERATED);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EV_COUNT, 8);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_SEED, 7);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE, 1);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EVENT_MASK, 0xf);
	mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_STATE, MRC_PROFILE_ONLINE);
	mrc_fz_nest_end(m, nest);
	err = mrc_fz_do(s, m, NULL, NULL);
	if (err)
		return err;

	mrc_fz_req_init(m, MRC_CMD_EV_PROFILE_NEW, false);
	nest = mrc_fz_nest(m, MRC_ATTR_EV_PROFILE);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 3);
	mrc_fz_nest_end(m, nest);
	return mrc_fz_do(s, m, NULL, NULL);
}

static int mrc_fz_add_cc_profiles(struct mrc_fz_sock *s)
{
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t nest, nscc;
	int err;

	mrc_fz_req_init(m, MRC_CMD_CC_PROFILE_NEW, false);
	nest = mrc_fz_nest(m, MRC_ATTR_CC_PROFILE);
	mrc_fz_u32(m, MRC_CC_PROFILE_ATTR_ID, 1);
	mrc_fz_string(m, MRC_CC_PROFILE_ATTR_ALGORITHM, "nscc");
	mrc_fz_u8(m, MRC_CC_PROFILE_ATTR_STATE, MRC_PROFILE_OFFLINE);
	mrc_fz_nest_end(m, nest);
	err = mrc_fz_do(s, m, NULL, NULL);
	if (err)
		return err;

	mrc_fz_req_init(m, MRC_CMD_CC_PROFILE_NEW, false);
	nest = mrc_fz_nest(m, MRC_ATTR_CC_PROFILE);
	mrc_fz_u32(m, MRC_CC_PROFILE_ATTR_ID, 2);
	mrc_fz_string(m, MRC_CC_PROFILE_ATTR_ALGORITHM, MRC_CC_ALG_NSCC);
	nscc = mrc_fz_nest(m, MRC_CC_PROFILE_ATTR_NSCC);
	mrc_fz_u32(m, MRC_NSCC_ATTR_BASE_RTT, 10000);
	mrc_fz_u32(m, MRC_NSCC_ATTR_TARGET_DELAY, 20000);
	mrc_fz_nest_end(m, nscc);
	mrc_fz_u8(m, MRC_CC_PROFILE_ATTR_STATE, MRC_PROFILE_ONLINE);
	mrc_fz_nest_end(m, nest);
	return mrc_fz_do(s, m, NULL, NULL);
}

/* Dump @cmd into @canon (and @col); 0 or -errno. */
static int mrc_fz_dump(struct mrc_fz_sock *s, int cmd, struct mrc_fz_str *canon,
		       struct mrc_fz_collect *col)
{
	mrc_fz_req_init(&mrc_fz_tmp, cmd, true);
	return mrc_fz_do(s, &mrc_fz_tmp, canon, col);
}

/* GET one object by id into @canon. */
static int mrc_fz_get(struct mrc_fz_sock *s, int cmd, int obj, int attr,
		      uint32_t id, struct mrc_fz_str *canon)
{
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t nest;

	mrc_fz_req_init(m, cmd, false);
	nest = mrc_fz_nest(m, obj);
	mrc_fz_u32(m, attr, id);
	mrc_fz_nest_end(m, nest);
	return mrc_fz_do(s, m, canon, NULL);
}

/*
 * The state a rejected request must leave alone: planes, EV profiles with
 * their EVs, CC profiles (counters and other moving parts left out).
 * @st[0..2]; returns the number of profiles, or -errno.
 */
static int mrc_fz_state(struct mrc_fz_sock *s, struct mrc_fz_str *st)
{
	static struct mrc_fz_collect col;
	int i, err, n;

	for (i = 0; i < 3; i++)
		mrc_fz_reset(&st[i]);
	err = mrc_fz_dump(s, MRC_CMD_PLANE_GET, &st[0], NULL);
	if (err)
		return err;
	col = (struct mrc_fz_collect){ .obj = MRC_ATTR_EV_PROFILE,
				       .a = MRC_EV_PROFILE_ATTR_ID };
	err = mrc_fz_dump(s, MRC_CMD_EV_PROFILE_GET, NULL, &col);
	if (err)
		return err;
	n = col.n;
	for (i = 0; i < n && !err; i++)
		err = mrc_fz_get(s, MRC_CMD_EV_PROFILE_GET, MRC_ATTR_EV_PROFILE,
				 MRC_EV_PROFILE_ATTR_ID, col.va[i], &st[1]);
	if (err)
		return err;
	col = (struct mrc_fz_collect){ .obj = MRC_ATTR_CC_PROFILE,
				       .a = MRC_CC_PROFILE_ATTR_ID };
	err = mrc_fz_dump(s, MRC_CMD_CC_PROFILE_GET, &st[2], &col);
	return err ? err : n + col.n;
}

static bool mrc_fz_state_eq(const struct mrc_fz_str *a, const struct mrc_fz_str *b)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(a[i].p, b[i].p))
			return false;
	return true;
}

/* Print where @a and @b first differ. */
static void mrc_fz_state_diff(const struct mrc_fz_str *a, const struct mrc_fz_str *b)
{
	size_t i, from;
	int k;

	for (k = 0; k < 3; k++) {
		for (i = 0; a[k].p[i] && a[k].p[i] == b[k].p[i]; i++)
			;
		if (!a[k].p[i] && !b[k].p[i])
			continue;
		from = i > 60 ? i - 60 : 0;
		printf("#   before: ...%.160s\n#   after:  ...%.160s\n",
		       a[k].p + from, b[k].p + from);
	}
}

/* Delete every object of a profile kind (down to INIT first). */
static int mrc_fz_flush_profiles(struct mrc_fz_sock *s, int get, int set, int del,
				 int obj, int id_attr, int state_attr)
{
	static struct mrc_fz_collect col;
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t nest;
	int i, err;

	col = (struct mrc_fz_collect){ .obj = obj, .a = id_attr };
	err = mrc_fz_dump(s, get, NULL, &col);
	for (i = 0; i < col.n && !err; i++) {
		mrc_fz_req_init(m, set, false);
		nest = mrc_fz_nest(m, obj);
		mrc_fz_u32(m, id_attr, col.va[i]);
		mrc_fz_u8(m, state_attr, MRC_PROFILE_INIT);
		mrc_fz_nest_end(m, nest);
		err = mrc_fz_do(s, m, NULL, NULL);
		if (!err)
			err = mrc_fz_get(s, del, obj, id_attr, col.va[i], NULL);
	}
	return err;
}

/* Connections in the netns of @s, or -errno. */
static int mrc_fz_conns(struct mrc_fz_sock *s)
{
	static struct mrc_fz_collect col;
	int err;

	col = (struct mrc_fz_collect){ .obj = MRC_ATTR_CONN, .a = MRC_CONN_ATTR_ID };
	err = mrc_fz_dump(s, MRC_CMD_CONN_GET, NULL, &col);
	return err ? err : col.n;
}

/* State of the fixture's connection, -errno if there is none. */
static int mrc_fz_conn_state(struct mrc_fz_ctx *ctx)
{
	static struct mrc_fz_collect col;
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	size_t nest;
	int err;

	if (ctx->conn_fd <= 0)
		return -ENOTCONN;
	mrc_fz_req_init(m, MRC_CMD_CONN_GET, false);
	nest = mrc_fz_nest(m, MRC_ATTR_CONN);
	mrc_fz_u32(m, MRC_CONN_ATTR_ID, ctx->conn_id);
	mrc_fz_nest_end(m, nest);
	col = (struct mrc_fz_collect){ .obj = MRC_ATTR_CONN, .a = MRC_CONN_ATTR_STATE };
	err = mrc_fz_do(&ctx->sk, m, NULL, &col);
	if (err)
		return err;
	return col.n ? (int)col.va[0] : -ENOENT;
}

/* A new connection to B's listener; its id in @ctx->conn_id. */
static int mrc_fz_connect(struct mrc_fz_ctx *ctx)
{
	struct sockaddr_mrc a = {
		.mrc_family = ctx->family, .mrc_port = htons(MRC_FZ_PORT),
		.mrc_addr_family = AF_INET, .mrc_addr4 = mrc_fz_addr(0, 2),
	};
	struct pollfd pfd;
	socklen_t len = sizeof(int);
	int err = 0;

	if (ctx->conn_fd > 0)
		close(ctx->conn_fd);
	ctx->conn_fd = socket(ctx->family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (ctx->conn_fd < 0)
		return -errno;
	if (connect(ctx->conn_fd, (struct sockaddr *)&a, sizeof(a)) &&
	    errno != EINPROGRESS)
		return -errno;
	pfd = (struct pollfd){ .fd = ctx->conn_fd, .events = POLLOUT };
	if (poll(&pfd, 1, 20000) != 1)
		return -ETIMEDOUT;
	if (getsockopt(ctx->conn_fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return -errno;
	if (err)
		return -err;
	len = sizeof(ctx->conn_id);
	if (getsockopt(ctx->conn_fd, SOL_MRC, MRC_CONN_ID, &ctx->conn_id, &len))
		return -errno;
	return 0;
}

/*
 * Bring A back to the fixture where requests changed it, make sure a
 * connection is established, and refresh the values requests name.
 */
static int mrc_fz_restore(struct mrc_fz_ctx *ctx)
{
	static struct mrc_fz_collect col;
	struct mrc_fz_str st[3] = {};
	const char *step = "state";
	uint32_t v[16];
	bool unread;
	size_t nest;
	int i, err;

	/* What cannot even be read back is rebuilt too. */
	unread = mrc_fz_state(&ctx->sk, st) < 0;
	err = 0;
	if (unread || strcmp(st[0].p, ctx->base[0].p)) {
		/* The connection goes first, while it has paths to close on. */
		step = "planes";
		if (ctx->conn_fd > 0)
			close(ctx->conn_fd);
		ctx->conn_fd = -1;
		col = (struct mrc_fz_collect){ .obj = MRC_ATTR_PLANE,
					       .a = MRC_PLANE_ATTR_ID };
		err = mrc_fz_dump(&ctx->sk, MRC_CMD_PLANE_GET, NULL, &col);
		for (i = 0; i < col.n && !err; i++)
			err = mrc_fz_get(&ctx->sk, MRC_CMD_PLANE_DEL, MRC_ATTR_PLANE,
					 MRC_PLANE_ATTR_ID, col.va[i], NULL);
		if (!err)
			err = mrc_fz_add_planes(ctx);
	}
	if (err >= 0 && (unread || strcmp(st[1].p, ctx->base[1].p))) {
		step = "EV profiles";
		err = mrc_fz_flush_profiles(&ctx->sk, MRC_CMD_EV_PROFILE_GET,
					    MRC_CMD_EV_PROFILE_SET,
					    MRC_CMD_EV_PROFILE_DEL,
					    MRC_ATTR_EV_PROFILE,
					    MRC_EV_PROFILE_ATTR_ID,
					    MRC_EV_PROFILE_ATTR_STATE);
		if (!err)
			err = mrc_fz_add_ev_profiles(&ctx->sk);
	}
	if (err >= 0 && (unread || strcmp(st[2].p, ctx->base[2].p))) {
		step = "CC profiles";
		err = mrc_fz_flush_profiles(&ctx->sk, MRC_CMD_CC_PROFILE_GET,
					    MRC_CMD_CC_PROFILE_SET,
					    MRC_CMD_CC_PROFILE_DEL,
					    MRC_ATTR_CC_PROFILE,
					    MRC_CC_PROFILE_ATTR_ID,
					    MRC_CC_PROFILE_ATTR_STATE);
		if (!err)
			err = mrc_fz_add_cc_profiles(&ctx->sk);
	}
	if (err >= 0) {
		step = "state after";
		err = mrc_fz_state(&ctx->sk, st);
	}
	if (err >= 0 && !mrc_fz_state_eq(st, ctx->base)) {
		mrc_fz_state_diff(ctx->base, st);
		err = -EINVAL;
	}
	for (i = 0; i < 3; i++)
		mrc_fz_free(&st[i]);
	if (err < 0)
		goto out;

	/* An established connection: a new one if the planes are new. */
	step = "connection";
	if (mrc_fz_conn_state(ctx) != MRC_CONN_ESTABLISHED) {
		err = mrc_fz_connect(ctx);
		if (!err && mrc_fz_conn_state(ctx) != MRC_CONN_ESTABLISHED)
			err = -ENOTCONN;
		if (err)
			goto out;
	}
	v[0] = ctx->conn_id;
	mrc_fz_pool_set(MRC_FZ_POOL_CONN, v, 1);

	/* The connection's EV values, for PATH_SET and PATH_PROBE. */
	step = "paths";
	mrc_fz_req_init(&mrc_fz_tmp, MRC_CMD_PATH_GET, true);
	nest = mrc_fz_nest(&mrc_fz_tmp, MRC_ATTR_PATH);
	mrc_fz_u32(&mrc_fz_tmp, MRC_PATH_ATTR_CONN_ID, ctx->conn_id);
	mrc_fz_nest_end(&mrc_fz_tmp, nest);
	col = (struct mrc_fz_collect){ .obj = MRC_ATTR_PATH, .a = MRC_PATH_ATTR_EV };
	err = mrc_fz_do(&ctx->sk, &mrc_fz_tmp, NULL, &col);
	if (!err)
		mrc_fz_pool_set(MRC_FZ_POOL_EV, col.va, col.n);
out:
	if (err)
		printf("# restoring the fixture failed at %s: %s\n", step, strerror(-err));
	return err;
}

static pid_t mrc_fz_server(int ns_b, int family)
{
	struct sockaddr_mrc any = {
		.mrc_family = family, .mrc_port = htons(MRC_FZ_PORT),
		.mrc_addr_family = AF_INET,
	};
	struct pollfd pfd[64];
	int ready[2], fd, n, i;
	char b = 0, buf[256];
	ssize_t got;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		if (setns(ns_b, CLONE_NEWNET))
			_exit(10);
		fd = socket(family, SOCK_STREAM, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&any, sizeof(any)) ||
		    listen(fd, 64))
			_exit(11);
		if (write(ready[1], &b, 1) != 1)
			_exit(12);
		/* Accept, drain, close on EOF: closes finish while both live. */
		pfd[0] = (struct pollfd){ .fd = fd, .events = POLLIN };
		for (n = 1;;) {
			if (poll(pfd, n, -1) < 0 && errno != EINTR)
				_exit(13);
			if ((pfd[0].revents & POLLIN) && n < (int)ARRAY_SIZE(pfd)) {
				pfd[n].fd = accept(fd, NULL, NULL);
				pfd[n].events = POLLIN;
				n += pfd[n].fd >= 0;
			}
			for (i = 1; i < n; i++) {
				if (!pfd[i].revents)
					continue;
				got = recv(pfd[i].fd, buf, sizeof(buf), MSG_DONTWAIT);
				if (got > 0 || (got < 0 && errno == EAGAIN))
					continue;
				close(pfd[i].fd);
				pfd[i--] = pfd[--n];
			}
		}
	}
	close(ready[1]);
	if (pid > 0 && read(ready[0], &b, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

static void mrc_fz_ctx_setup(struct __test_metadata *_metadata,
			     struct mrc_fz_ctx *ctx)
{
	static const char * const va[] = { "va0", "va1" }, * const vb[] = { "vb0", "vb1" };
	static const uint32_t ids[] = { 0, 1, 2, 3, 4 };
	struct mrc_fz_sock rt;
	uint32_t v[3];
	int i;

	clock_gettime(CLOCK_MONOTONIC, &ctx->t0);
	mrc_fz_seed_init();
	ctx->sk.fd = -1;
	ctx->sk_b.fd = -1;
	ctx->family = mrc_lib_family();
	ASSERT_GT(ctx->family, 0) TH_LOG("mrc.ko is not loaded");

	/* B first, then A, which the test stays in. */
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ctx->ns_b = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ctx->ns_a = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ctx->ns_a);
	ASSERT_LE(0, ctx->ns_b);

	ASSERT_EQ(0, mrc_fz_open(&rt, NETLINK_ROUTE));
	ASSERT_EQ(0, mrc_fz_link_up(&rt, "lo", 0));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, mrc_fz_veth(&rt, va[i], vb[i], ctx->ns_b));
		ASSERT_EQ(0, mrc_fz_link_up(&rt, va[i], mrc_fz_addr(i, 1)));
		ctx->ifindex[i] = if_nametoindex(va[i]);
	}
	mrc_fz_close(&rt);
	ASSERT_EQ(0, mrc_fz_open(&ctx->sk, NETLINK_GENERIC));
	ASSERT_EQ(0, mrc_fz_resolve(&ctx->sk)) TH_LOG("family mrc not found");

	/* The peer: links, addresses and planes in B. */
	ASSERT_EQ(0, setns(ctx->ns_b, CLONE_NEWNET));
	ASSERT_EQ(0, mrc_fz_open(&rt, NETLINK_ROUTE));
	ASSERT_EQ(0, mrc_fz_link_up(&rt, "lo", 0));
	ASSERT_EQ(0, mrc_fz_open(&ctx->sk_b, NETLINK_GENERIC));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, mrc_fz_link_up(&rt, vb[i], mrc_fz_addr(i, 2)));
		ASSERT_EQ(0, mrc_fz_plane_add(&ctx->sk_b, i, if_nametoindex(vb[i]),
					      mrc_fz_addr(i, 2)));
	}
	mrc_fz_close(&rt);
	ASSERT_EQ(0, setns(ctx->ns_a, CLONE_NEWNET));

	ASSERT_EQ(0, mrc_fz_add_planes(ctx));
	ASSERT_EQ(0, mrc_fz_add_ev_profiles(&ctx->sk));
	ASSERT_EQ(0, mrc_fz_add_cc_profiles(&ctx->sk));
	ASSERT_EQ(5, mrc_fz_state(&ctx->sk, ctx->base));

	ctx->server = mrc_fz_server(ctx->ns_b, ctx->family);
	ASSERT_LT(0, ctx->server);
	ASSERT_EQ(0, mrc_fz_restore(ctx)) TH_LOG("no connection to B");

	mrc_fz_pool_set(MRC_FZ_POOL_PLANE, ids, 2);
	mrc_fz_pool_set(MRC_FZ_POOL_EVP, ids + 1, 3);
	mrc_fz_pool_set(MRC_FZ_POOL_CCP, ids + 1, 2);
	mrc_fz_pool_set(MRC_FZ_POOL_SMALL, ids, 5);
	v[0] = 1;
	v[1] = ctx->ifindex[0];
	v[2] = ctx->ifindex[1];
	mrc_fz_pool_set(MRC_FZ_POOL_IFINDEX, v, 3);
	v[0] = mrc_fz_addr(0, 1);
	v[1] = mrc_fz_addr(1, 1);
	v[2] = mrc_fz_addr(0, 9);
	mrc_fz_pool_set(MRC_FZ_POOL_ADDR4, v, 3);
	v[0] = MRC_DEFAULT_UDP_PORT;
	v[1] = MRC_DEFAULT_UDP_PORT + 1;
	v[2] = MRC_FZ_PORT;
	mrc_fz_pool_set(MRC_FZ_POOL_PORT, v, 3);
}

static void mrc_fz_ctx_teardown(struct __test_metadata *_metadata,
				struct mrc_fz_ctx *ctx)
{
	int i, left_a = 0, left_b = 0;
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %.1f s with setup\n", (t1.tv_sec - ctx->t0.tv_sec) +
	       (t1.tv_nsec - ctx->t0.tv_nsec) / 1e9);

	/*
	 * Both ends closed while both namespaces live, and the closes seen
	 * through on both: else the connections wait out their user timeout
	 * in dead namespaces, holding the module (a later rmmod fails). On
	 * veths a close takes milliseconds: one still open after 10 s is a
	 * connection that lost its planes for good.
	 */
	if (ctx->conn_fd > 0)
		close(ctx->conn_fd);
	ctx->conn_fd = -1;
	if (ctx->server > 0) {
		kill(ctx->server, SIGKILL);
		waitpid(ctx->server, NULL, 0);
	}
	for (i = 0; i < 200; i++) {
		left_a = mrc_fz_conns(&ctx->sk);
		left_b = mrc_fz_conns(&ctx->sk_b);
		if (left_a <= 0 && left_b <= 0)
			break;
		usleep(50000);
	}
	mrc_fz_close(&ctx->sk);
	mrc_fz_close(&ctx->sk_b);
	for (i = 0; i < 3; i++)
		mrc_fz_free(&ctx->base[i]);
	EXPECT_EQ(0, left_a) TH_LOG("connections of A still open 10 s after close");
	EXPECT_EQ(0, left_b) TH_LOG("connections of B still open 10 s after close");
}

/* ---- generating requests ---- */

/*
 * A gentle request has only attributes its command takes, with values in
 * range and no damage: it gets past the policies to the handlers' own
 * checks, and now and then changes something.
 */
static bool mrc_fz_gentle;

static uint32_t mrc_fz_pick(const struct mrc_fz_attr *a)
{
	static const uint32_t odd[] = {
		0, 1, 2, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff,
	};
	uint32_t r = mrc_fz_below(mrc_fz_gentle ? 72 : 100), span;

	if (a->pool && mrc_fz_pools.n[a->pool] && r < 35)
		return mrc_fz_pools.v[a->pool][mrc_fz_below(mrc_fz_pools.n[a->pool])];
	if (r < 60) {
		span = a->max - a->min;
		return a->min + (span == UINT32_MAX ? (uint32_t)mrc_fz_rand() :
				 mrc_fz_below(span + 1));
	}
	if (r < 72)
		return mrc_fz_chance(50) ? a->min : a->max;
	if (r < 84)
		return mrc_fz_chance(50) || !a->min ? a->max + 1 : a->min - 1;
	if (r < 96)
		return odd[mrc_fz_below(ARRAY_SIZE(odd))];
	return mrc_fz_rand();
}

static const char *mrc_fz_pick_string(void)
{
	static const char * const strs[] = {
		MRC_CC_ALG_NSCC, "nscc", "NSCC", "cubic", "", "uet-1.0-nscc ",
		"0123456789012345678901234567890",	/* 31: the limit */
		"01234567890123456789012345678901",	/* 32 */
		"%s%n%x", "va0",
	};

	return strs[mrc_fz_below(mrc_fz_gentle ? 2 : ARRAY_SIZE(strs))];
}

static void mrc_fz_gen_obj(struct mrc_fz_msg *m, const struct mrc_fz_obj *o,
			   uint32_t want, int depth);

/* One attribute the policy will find wrong, more or less subtly. */
static void mrc_fz_gen_bad(struct mrc_fz_msg *m, int t, const struct mrc_fz_attr *a,
			   int depth)
{
	static const size_t lens[] = { 0, 1, 2, 3, 5, 6, 7, 8, 12, 15, 17, 64 };
	bool nested = a->kind == MRC_FZ_NEST || a->kind == MRC_FZ_ARRAY;
	uint32_t v = mrc_fz_pick(a);
	size_t off;

	switch (mrc_fz_below(7)) {
	case 0:
		mrc_fz_note(m, "len(%s)", a->name);
		mrc_fz_put(m, t, NULL, lens[mrc_fz_below(ARRAY_SIZE(lens))]);
		break;
	case 1:	/* nested where flat is expected, and the other way round */
		mrc_fz_note(m, "shape(%s)", a->name);
		if (nested) {
			mrc_fz_u32(m, t, v);
			break;
		}
		off = mrc_fz_nest(m, t);
		mrc_fz_u32(m, 1 + mrc_fz_below(4), v);
		mrc_fz_nest_end(m, off);
		break;
	case 2:	/* the NLA_F_NESTED flag wrong, content right */
		mrc_fz_note(m, "nestflag(%s)", a->name);
		if (nested) {
			off = mrc_fz_nest_raw(m, t);
			if (a->nested && depth < 6)
				mrc_fz_gen_obj(m, a->nested, 0, depth + 1);
			mrc_fz_nest_end(m, off);
		} else {
			mrc_fz_put(m, t | NLA_F_NESTED, &v, a->kind == MRC_FZ_U8 ? 1 :
				   a->kind == MRC_FZ_U16 ? 2 : 4);
		}
		break;
	case 3:
		mrc_fz_note(m, "byteorder(%s)", a->name);
		mrc_fz_put(m, t | NLA_F_NET_BYTEORDER, &v, 4);
		break;
	case 4:	/* strings: unterminated, empty, NUL only, where a number goes */
		mrc_fz_note(m, "string(%s)", a->name);
		switch (mrc_fz_below(4)) {
		case 0:
			mrc_fz_put(m, t, MRC_CC_ALG_NSCC, strlen(MRC_CC_ALG_NSCC));
			break;
		case 1:
			mrc_fz_put(m, t, "", 0);
			break;
		case 2:
			mrc_fz_put(m, t, "\0\0\0", 4);
			break;
		default:
			mrc_fz_put(m, t, "1234", 4);
		}
		break;
	case 5:
		mrc_fz_note(m, "random(%s)", a->name);
		mrc_fz_put(m, t, NULL, mrc_fz_below(48));
		break;
	default:	/* right width, value out of range */
		mrc_fz_note(m, "range(%s)", a->name);
		v = mrc_fz_chance(50) || !a->min ? a->max + 1 + mrc_fz_below(3) : a->min - 1;
		mrc_fz_put(m, t, &v, a->kind == MRC_FZ_U8 ? 1 :
			   a->kind == MRC_FZ_U16 ? 2 : 4);
	}
}

static void mrc_fz_gen_attr(struct mrc_fz_msg *m, int t, const struct mrc_fz_attr *a,
			    int depth)
{
	uint8_t in6[16] = { 0xfd, 0, 0, 201 };
	uint32_t v, i, n;
	uint64_t v64;
	size_t off, e;

	if (!mrc_fz_gentle && mrc_fz_chance(8)) {
		mrc_fz_gen_bad(m, t, a, depth);
		return;
	}
	v = mrc_fz_pick(a);
	switch (a->kind) {
	case MRC_FZ_U8:
		mrc_fz_u8(m, t, v);
		break;
	case MRC_FZ_U16:
		mrc_fz_u16(m, t, v);
		break;
	case MRC_FZ_U32:
	case MRC_FZ_BE32:
		mrc_fz_u32(m, t, v);
		break;
	case MRC_FZ_U64:
		v64 = mrc_fz_rand();
		mrc_fz_put(m, t, &v64, sizeof(v64));
		break;
	case MRC_FZ_IN6:
		switch (mrc_fz_gentle ? 0 : mrc_fz_below(4)) {
		case 0:		/* fd00:201::<random> */
			in6[15] = v;
			break;
		case 1:		/* :: and ::1 */
			memset(in6, 0, sizeof(in6));
			in6[15] = v & 1;
			break;
		case 2:		/* ff02::1 */
			memset(in6, 0, sizeof(in6));
			in6[0] = 0xff;
			in6[1] = 2;
			in6[15] = 1;
			break;
		default:
			for (i = 0; i < 16; i++)
				in6[i] = mrc_fz_rand();
		}
		mrc_fz_put(m, t, in6, sizeof(in6));
		break;
	case MRC_FZ_STR:
		mrc_fz_string(m, t, mrc_fz_pick_string());
		break;
	case MRC_FZ_FLAG:
		mrc_fz_put(m, t, NULL, 0);
		break;
	case MRC_FZ_NEST:
		off = mrc_fz_nest(m, t);
		if (a->nested && depth < 6)
			mrc_fz_gen_obj(m, a->nested, 0, depth + 1);
		else
			mrc_fz_put(m, 1 + mrc_fz_below(4), NULL, mrc_fz_below(12));
		mrc_fz_nest_end(m, off);
		break;
	case MRC_FZ_ARRAY:
		n = mrc_fz_below(9);
		if (!mrc_fz_gentle && mrc_fz_chance(3)) {
			n = MRC_MAX_EVS_PER_PROFILE - 8 + mrc_fz_below(200);
			mrc_fz_note(m, "huge(%s:%u)", a->name, n);
		}
		off = mrc_fz_nest(m, t);
		for (i = 0; i < n && !m->full; i++) {
			e = mrc_fz_nest(m, mrc_fz_gentle || mrc_fz_chance(90) ? i + 1 :
					mrc_fz_below(0x4000));
			mrc_fz_gen_obj(m, a->nested, B(MRC_EV_ATTR_INDEX) |
				       B(MRC_EV_ATTR_VALUE), depth + 2);
			mrc_fz_nest_end(m, e);
		}
		mrc_fz_nest_end(m, off);
		break;
	default:
		mrc_fz_put(m, t, NULL, mrc_fz_below(16));
	}
}

/* A random selection of @o's attributes, in random order. */
static void mrc_fz_gen_obj(struct mrc_fz_msg *m, const struct mrc_fz_obj *o,
			   uint32_t want, int depth)
{
	int order[32], n = 0, i, j, t, tmp, p;

	for (t = 1; t <= o->maxtype && n < 32; t++) {
		const struct mrc_fz_attr *a = &o->attrs[t];

		p = want & B(t) ? 92 : !a->name ? 2 : a->reply_only ? 3 : 30;
		if (mrc_fz_gentle && (!a->name || a->reply_only))
			p = 0;
		if (mrc_fz_chance(p))
			order[n++] = t;
	}
	for (i = n - 1; i > 0; i--) {
		j = mrc_fz_below(i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (i = 0; i < n && !m->full; i++) {
		const struct mrc_fz_attr *a = &o->attrs[order[i]];
		static const struct mrc_fz_attr anon = { .name = "#" };

		mrc_fz_gen_attr(m, order[i], a->name ? a : &anon, depth);
		if (!mrc_fz_gentle && mrc_fz_chance(3)) {
			mrc_fz_note(m, "dup(%s)", a->name ?: "#");
			mrc_fz_gen_attr(m, order[i], a->name ? a : &anon, depth);
		}
	}
	if (!mrc_fz_gentle && mrc_fz_chance(5)) {
		t = mrc_fz_chance(70) ? o->maxtype + 1 + mrc_fz_below(8) :
		    mrc_fz_chance(50) ? 0 : mrc_fz_below(0x8000);
		mrc_fz_note(m, "unknown(%s:%d)", o->name, t & NLA_TYPE_MASK);
		mrc_fz_put(m, t, NULL, mrc_fz_below(4) * 4);
	}
}

/* EV profile with every slot of the largest explicit array filled. */
static void mrc_fz_gen_big_evp(struct mrc_fz_msg *m, int cmd)
{
	uint32_t i, n = MRC_MAX_EVS_PER_PROFILE;
	size_t nest, evs, ev;

	mrc_fz_note(m, "big-explicit");
	nest = mrc_fz_nest(m, MRC_ATTR_EV_PROFILE);
	if (cmd == MRC_CMD_EV_PROFILE_SET)
		mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 1);
	mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_EXPLICIT);
	mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EV_COUNT, n);
	mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_STATE, MRC_PROFILE_OFFLINE);
	evs = mrc_fz_nest(m, MRC_EV_PROFILE_ATTR_EVS);
	for (i = 0; i < n; i++) {
		ev = mrc_fz_nest(m, MRC_EV_PROFILE_ATTR_EV);
		mrc_fz_u32(m, MRC_EV_ATTR_INDEX, i);
		mrc_fz_u32(m, MRC_EV_ATTR_VALUE, i);
		mrc_fz_u32(m, MRC_EV_ATTR_PLANE, i & 1);
		mrc_fz_nest_end(m, ev);
	}
	mrc_fz_nest_end(m, evs);
	mrc_fz_nest_end(m, nest);
}

/* Damage done after the message is complete: lengths that lie. */
static size_t mrc_fz_gen_framing(struct mrc_fz_msg *m, size_t len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	struct nlattr *nla;
	size_t cut, off;

	if (m->nattrs && mrc_fz_chance(5)) {
		off = m->attrs[mrc_fz_below(m->nattrs)];
		nla = (struct nlattr *)(m->buf + off);
		switch (mrc_fz_below(4)) {
		case 0:
			nla->nla_len = mrc_fz_below(NLA_HDRLEN);
			break;
		case 1:
			nla->nla_len = len - off + 4 + mrc_fz_below(64);
			break;
		case 2:
			nla->nla_len |= 1;
			break;
		default:
			nla->nla_len = 0xffff;
		}
		mrc_fz_note(m, "nla_len@%zu=%u", off, nla->nla_len);
	}
	if (!mrc_fz_chance(12))
		return len;
	switch (mrc_fz_below(8)) {
	case 0:		/* datagram and nlmsg_len cut to the same length */
		cut = mrc_fz_below(len);
		if (cut >= 4)
			nlh->nlmsg_len = cut;
		mrc_fz_note(m, "cut=%zu", cut);
		return cut;
	case 1:		/* datagram cut, nlmsg_len promising more */
		cut = mrc_fz_below(len);
		mrc_fz_note(m, "short-datagram=%zu", cut);
		return cut;
	case 2:		/* nlmsg_len shorter than what was sent */
		nlh->nlmsg_len = NLMSG_HDRLEN + mrc_fz_below(len - NLMSG_HDRLEN);
		off = NLMSG_ALIGN(nlh->nlmsg_len);
		/* No second message in the rest: its length reads 0. */
		if (off + NLMSG_HDRLEN <= len)
			memset(m->buf + off, 0, 4);
		mrc_fz_note(m, "nlmsg_len=%u/%zu", nlh->nlmsg_len, len);
		return len;
	case 3:
		nlh->nlmsg_len = mrc_fz_below(NLMSG_HDRLEN);
		mrc_fz_note(m, "nlmsg_len=%u", nlh->nlmsg_len);
		return len;
	case 4:
		nlh->nlmsg_len = len + 1 + mrc_fz_below(64);
		mrc_fz_note(m, "nlmsg_len=%u>%zu", nlh->nlmsg_len, len);
		return len;
	case 5:
		nlh->nlmsg_len = UINT32_MAX;
		mrc_fz_note(m, "nlmsg_len=max");
		return len;
	case 6:		/* trailing bytes, less than a header */
		cut = 1 + mrc_fz_below(NLMSG_HDRLEN - 1);
		if (len + cut > sizeof(m->buf))
			return len;
		for (off = 0; off < cut; off++)
			m->buf[len + off] = mrc_fz_rand();
		mrc_fz_note(m, "trailing=%zu", cut);
		return len + cut;
	default:
		nlh->nlmsg_flags &= ~NLM_F_REQUEST;
		mrc_fz_note(m, "no-request-flag");
		return len;
	}
}

/* A random request for @cmd; returns the datagram's length. */
static size_t mrc_fz_gen(struct mrc_fz_msg *m, int cmd, uint32_t seq)
{
	static const uint16_t odd_flags[] = {
		NLM_F_ECHO, NLM_F_ROOT, NLM_F_MATCH, NLM_F_ATOMIC, NLM_F_CREATE,
		NLM_F_EXCL | NLM_F_CREATE, NLM_F_REPLACE, NLM_F_APPEND, 0x8000,
	};
	const struct mrc_fz_cmd *fc = cmd > 0 && cmd <= MRC_CMD_MAX ? &mrc_fz_cmds[cmd] : NULL;
	struct genlmsghdr *g;
	uint16_t flags = NLM_F_REQUEST;
	int obj, strategy = mrc_fz_below(100), i, n;
	bool dump;
	size_t nest;

	mrc_fz_gentle = fc && mrc_fz_chance(20);
	dump = fc ? fc->has_dump && (!fc->has_do || mrc_fz_chance(50)) : mrc_fz_chance(30);
	if (mrc_fz_gentle) {
		mrc_fz_genl(m, mrc_fz_ops.id, NLM_F_REQUEST | NLM_F_ACK |
			    (dump ? NLM_F_DUMP : 0), seq, cmd);
		mrc_fz_note(m, "gentle%s", dump ? " dump" : "");
		if (fc->obj) {
			nest = mrc_fz_nest(m, fc->obj);
			mrc_fz_gen_obj(m, mrc_fz_top_attrs[fc->obj].nested, fc->want, 0);
			mrc_fz_nest_end(m, nest);
		}
		return mrc_fz_end(m);
	}
	if (mrc_fz_chance(5))
		dump = !dump;
	if (dump)
		flags |= NLM_F_DUMP;
	if (mrc_fz_chance(90))
		flags |= NLM_F_ACK;
	if (mrc_fz_chance(5))
		flags |= odd_flags[mrc_fz_below(ARRAY_SIZE(odd_flags))];
	mrc_fz_genl(m, mrc_fz_ops.id, flags, seq, cmd);
	((struct nlmsghdr *)m->buf)->nlmsg_pid = mrc_fz_chance(5) ? mrc_fz_rand() : 0;
	if (mrc_fz_chance(5)) {
		g = NLMSG_DATA(m->buf);
		g->version = mrc_fz_rand();
		g->reserved = mrc_fz_rand();
		mrc_fz_note(m, "genlhdr=%u/%u", g->version, g->reserved);
	}
	if (dump)
		mrc_fz_note(m, "dump");

	obj = fc && fc->obj ? fc->obj : 1 + (int)mrc_fz_below(MRC_ATTR_MAX);
	if (strategy < 5) {
		mrc_fz_note(m, "random-payload");
		mrc_fz_raw(m, NULL, mrc_fz_below(256));
	} else if (strategy < 10) {
		mrc_fz_note(m, "no-attributes");
	} else if (strategy < 12 && (cmd == MRC_CMD_EV_PROFILE_NEW ||
				     cmd == MRC_CMD_EV_PROFILE_SET)) {
		mrc_fz_gen_big_evp(m, cmd);
	} else {
		if (mrc_fz_chance(8)) {
			obj = mrc_fz_below(MRC_ATTR_MAX + 3);
			mrc_fz_note(m, "top=%d", obj);
		}
		if (mrc_fz_chance(4)) {
			mrc_fz_gen_bad(m, obj, &mrc_fz_top_attrs[obj <= MRC_ATTR_MAX &&
				       mrc_fz_top_attrs[obj].name ? obj : MRC_ATTR_PLANE], 0);
		} else {
			nest = mrc_fz_nest(m, obj);
			if (obj <= MRC_ATTR_MAX && mrc_fz_top_attrs[obj].nested)
				mrc_fz_gen_obj(m, mrc_fz_top_attrs[obj].nested,
					       fc && obj == fc->obj ? fc->want : 0, 0);
			else
				mrc_fz_raw(m, NULL, mrc_fz_below(32));
			mrc_fz_nest_end(m, nest);
		}
		if (mrc_fz_chance(4)) {
			n = 500 + mrc_fz_below(1500);
			mrc_fz_note(m, "repeat=%d", n);
			for (i = 0; i < n && !m->full; i++)
				mrc_fz_u32(m, mrc_fz_chance(50) ? obj : MRC_ATTR_PAD, i);
		}
		if (mrc_fz_chance(4)) {
			i = mrc_fz_below(MRC_ATTR_MAX + 4);
			mrc_fz_note(m, "extra-top=%d", i);
			mrc_fz_put(m, i, NULL, mrc_fz_below(3) * 4);
		}
	}
	return mrc_fz_gen_framing(m, mrc_fz_end(m));
}

/* ---- judging the answers ---- */

/* What the kernel must do with a datagram, from its bytes alone. */
enum mrc_fz_expect {
	MRC_FZ_DROPPED,		/* bad framing: the netlink core drops it */
	MRC_FZ_IGNORED,		/* not a request: at most an ACK */
	MRC_FZ_SHORT_GENL,	/* no complete genl header: EINVAL */
	MRC_FZ_BAD_GENL,	/* header check of new commands: EINVAL */
	MRC_FZ_NO_OP,		/* no such command or variant: EOPNOTSUPP */
	MRC_FZ_NO_PERM,		/* unprivileged change: EPERM */
	MRC_FZ_HANDLED,		/* policies and handlers of the family */
};

static const char * const mrc_fz_expect_names[] = {
	"dropped", "ignored", "short-genl", "bad-genl", "no-op", "no-perm",
	"handled",
};

static enum mrc_fz_expect mrc_fz_expect(const unsigned char *req, size_t len,
					bool privileged)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)req;
	const struct genlmsghdr *g;
	uint32_t flags;
	bool dump;

	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
		return MRC_FZ_DROPPED;
	if (!(nlh->nlmsg_flags & NLM_F_REQUEST))
		return MRC_FZ_IGNORED;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return MRC_FZ_SHORT_GENL;
	g = NLMSG_DATA(nlh);
	/*
	 * Commands from the family's resv_start_op (MRC_CMD_MAX + 1) on get
	 * the strict header check, known or not.
	 */
	flags = nlh->nlmsg_flags;
	if ((flags & NLM_F_DUMP) == NLM_F_DUMP)
		flags &= ~NLM_F_DUMP;
	if (g->cmd > MRC_CMD_MAX &&
	    (g->reserved || (flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO))))
		return MRC_FZ_BAD_GENL;
	if (!mrc_fz_ops.present[g->cmd])
		return MRC_FZ_NO_OP;
	flags = mrc_fz_ops.flags[g->cmd];
	if (!privileged && (flags & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)))
		return MRC_FZ_NO_PERM;
	dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	if (!(flags & (dump ? GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO)))
		return MRC_FZ_NO_OP;
	return MRC_FZ_HANDLED;
}

struct mrc_fz_count {
	unsigned int	sent, dumps, accepted, rejected, extack, core, dropped;
};

struct mrc_fz_run {
	struct mrc_fz_count	count[256];
	unsigned int		failures;
	int			cmd, iter;
	struct {
		char		text[80];
		unsigned int	n;
	}			msgs[256];	/* distinct extack messages */
	int			nmsgs;
};

static void mrc_fz_count_msg(struct mrc_fz_run *run, const char *msg)
{
	int i;

	for (i = 0; i < run->nmsgs; i++) {
		if (!strncmp(run->msgs[i].text, msg, sizeof(run->msgs[i].text) - 1)) {
			run->msgs[i].n++;
			return;
		}
	}
	if (run->nmsgs < 256) {
		snprintf(run->msgs[run->nmsgs].text, sizeof(run->msgs[0].text), "%.79s", msg);
		run->msgs[run->nmsgs++].n = 1;
	}
}

/* Sum of one counter (its offset in struct mrc_fz_count) over all commands. */
static unsigned int mrc_fz_total(const struct mrc_fz_run *run, size_t off)
{
	unsigned int sum = 0;
	int i;

	for (i = 0; i < 256; i++)
		sum += *(const unsigned int *)((const char *)&run->count[i] + off);
	return sum;
}

static void mrc_fz_hexdump(const unsigned char *p, size_t len)
{
	size_t i;

	printf("#   request (%zu bytes):", len);
	for (i = 0; i < len && i < 96; i++)
		printf("%s%02x", i % 32 ? "" : "\n#     ", p[i]);
	printf("%s\n", len > 96 ? " ..." : "");
}

static void mrc_fz_fail(struct mrc_fz_run *run, const struct mrc_fz_msg *m, size_t len,
			enum mrc_fz_expect exp, const struct mrc_fz_resp *r,
			const char *fmt, ...)
{
	va_list ap;

	if (++run->failures > MRC_FZ_MAX_LOGGED)
		return;
	printf("# FAIL %s #%d: ", mrc_fz_cmd_name(run->cmd), run->iter);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n#   expected %s; answer: %d messages, %d replies, %s%s err %d \"%s\"%s\n",
	       mrc_fz_expect_names[exp], r->msgs, r->replies, r->acked ? "ack " : "",
	       r->multi ? "dump" : "", r->err, r->msg,
	       r->send_err ? " (send failed)" : "");
	printf("#   mutations: %s\n", m->what[0] ? m->what : "none");
	mrc_fz_hexdump(m->buf, len);
}

/* Check one answer against what the bytes sent call for. */
static void mrc_fz_judge(struct mrc_fz_run *run, const struct mrc_fz_msg *m,
			 size_t len, enum mrc_fz_expect exp,
			 const struct mrc_fz_resp *r)
{
	struct mrc_fz_count *c = &run->count[run->cmd & 0xff];
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)m->buf;

	c->sent++;
	if (len >= NLMSG_HDRLEN && (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
		c->dumps++;
	if (r->stray)
		mrc_fz_fail(run, m, len, exp, r, "%d messages with another seq", r->stray);
	if (r->errors > 1)
		mrc_fz_fail(run, m, len, exp, r, "%d errors for one request", r->errors);
	switch (exp) {
	case MRC_FZ_DROPPED:
		c->dropped++;
		if (r->msgs)
			mrc_fz_fail(run, m, len, exp, r, "answered a message the core drops");
		return;
	case MRC_FZ_IGNORED:
		c->dropped++;
		if (r->has_err || r->replies)
			mrc_fz_fail(run, m, len, exp, r, "handled a message that is no request");
		return;
	case MRC_FZ_SHORT_GENL:
	case MRC_FZ_BAD_GENL:
	case MRC_FZ_NO_OP:
	case MRC_FZ_NO_PERM:
		c->core++;
		c->rejected++;
		if (!r->has_err || r->err != (exp == MRC_FZ_NO_OP ? -EOPNOTSUPP :
					      exp == MRC_FZ_NO_PERM ? -EPERM : -EINVAL))
			mrc_fz_fail(run, m, len, exp, r, "wrong error");
		if (exp == MRC_FZ_BAD_GENL && !r->msg[0])
			mrc_fz_fail(run, m, len, exp, r, "no extack message");
		return;
	case MRC_FZ_HANDLED:
		break;
	}
	if (!r->has_err) {
		c->accepted++;
		if ((nlh->nlmsg_flags & NLM_F_ACK) && !r->acked && !r->multi)
			mrc_fz_fail(run, m, len, exp, r, "accepted without an ACK");
		return;
	}
	c->rejected++;
	if (r->msg[0]) {
		c->extack++;
		mrc_fz_count_msg(run, r->msg);
	} else
		mrc_fz_fail(run, m, len, exp, r, "rejected without an extack message");
	if (r->replies && !r->multi)
		mrc_fz_fail(run, m, len, exp, r, "a reply and then an error");
}

/*
 * A run of requests for one command: the state before the first, then
 * after each that reached a handler of a changing command. A rejected
 * request must leave it as it was.
 */
struct mrc_fz_batch {
	struct mrc_fz_str	st[2][3];
	int			cur;
};

static int mrc_fz_begin(struct mrc_fz_ctx *ctx, struct mrc_fz_run *run,
			struct mrc_fz_batch *b, int cmd)
{
	int err;

	run->cmd = cmd;
	run->iter = 0;
	b->cur = 0;
	err = mrc_fz_restore(ctx);
	if (!err && mrc_fz_state(&ctx->sk, b->st[0]) < 0)
		err = -EIO;
	return err;
}

/* Send @len bytes of @m, judge the answer; -errno if the run cannot go on. */
static int mrc_fz_one(struct mrc_fz_ctx *ctx, struct mrc_fz_run *run,
		      struct mrc_fz_batch *b, const struct mrc_fz_msg *m,
		      size_t len, uint32_t seq)
{
	struct mrc_fz_str *now = b->st[b->cur], *next = b->st[!b->cur];
	enum mrc_fz_expect exp = mrc_fz_expect(m->buf, len, true);
	struct mrc_fz_resp r;
	int err, nprof;

	err = mrc_fz_xfer(&ctx->sk, m->buf, len, seq, &r, NULL, NULL);
	if (err) {
		mrc_fz_fail(run, m, len, exp, &r, "no answer: %s", strerror(-err));
		return err;
	}
	mrc_fz_judge(run, m, len, exp, &r);
	run->iter++;
	if (exp != MRC_FZ_HANDLED || !mrc_fz_op_changes(run->cmd))
		return 0;
	nprof = mrc_fz_state(&ctx->sk, next);
	if (nprof < 0) {
		mrc_fz_fail(run, m, len, exp, &r,
			    "reading planes and profiles back failed after it: %d \"%s\"",
			    nprof, mrc_fz_last.msg);
		nprof = MRC_FZ_MAX_PROFILES + 1;
	} else if (r.has_err && !mrc_fz_state_eq(now, next)) {
		mrc_fz_fail(run, m, len, exp, &r, "the rejected request changed the state");
		mrc_fz_state_diff(now, next);
	}
	b->cur = !b->cur;
	if (nprof > MRC_FZ_MAX_PROFILES)
		return mrc_fz_begin(ctx, run, b, run->cmd);
	return 0;
}

/* Reads, and whatever the core refused, change nothing. */
static void mrc_fz_finish(struct mrc_fz_ctx *ctx, struct mrc_fz_run *run,
			  struct mrc_fz_batch *b)
{
	int i;

	if (mrc_fz_state(&ctx->sk, b->st[!b->cur]) >= 0 &&
	    !mrc_fz_op_changes(run->cmd) &&
	    !mrc_fz_state_eq(b->st[b->cur], b->st[!b->cur])) {
		printf("# FAIL %s: the state changed during the batch\n",
		       mrc_fz_cmd_name(run->cmd));
		mrc_fz_state_diff(b->st[b->cur], b->st[!b->cur]);
		run->failures++;
	}
	for (i = 0; i < 6; i++)
		mrc_fz_free(&b->st[i / 3][i % 3]);
}

/* @n random requests for @cmd. */
static int mrc_fz_batch(struct mrc_fz_ctx *ctx, struct mrc_fz_run *run, int cmd,
			unsigned int n)
{
	struct mrc_fz_batch b = {};
	struct mrc_fz_msg *m = &mrc_fz_req;
	unsigned int i;
	uint32_t seq;
	size_t len;
	int err;

	err = mrc_fz_begin(ctx, run, &b, cmd);
	for (i = 0; !err && i < n; i++) {
		seq = ctx->sk.seq;
		ctx->sk.seq += 2;
		len = mrc_fz_gen(m, cmd, seq);
		err = mrc_fz_one(ctx, run, &b, m, len, seq);
	}
	mrc_fz_finish(ctx, run, &b);
	return err;
}

/* A well-formed request for @cmd naming the fixture's objects. */
static void mrc_fz_valid(struct mrc_fz_msg *m, const struct mrc_fz_ctx *ctx,
			 int cmd, bool dump)
{
	const struct mrc_fz_cmd *fc = &mrc_fz_cmds[cmd];
	size_t nest = SIZE_MAX;

	mrc_fz_req_init(m, cmd, dump);
	if (fc->obj && (!dump || cmd == MRC_CMD_PATH_GET))
		nest = mrc_fz_nest(m, fc->obj);
	switch (nest == SIZE_MAX ? 0 : cmd) {
	case MRC_CMD_PLANE_ADD:
		mrc_fz_u32(m, MRC_PLANE_ATTR_IFINDEX, ctx->ifindex[0]);
		break;
	case MRC_CMD_PLANE_DEL:
		mrc_fz_u32(m, MRC_PLANE_ATTR_ID, 1);
		break;
	case MRC_CMD_PLANE_GET:
		mrc_fz_u32(m, MRC_PLANE_ATTR_ID, 0);
		break;
	case MRC_CMD_PLANE_SET:
		mrc_fz_u32(m, MRC_PLANE_ATTR_ID, 0);
		mrc_fz_u32(m, MRC_PLANE_ATTR_WEIGHT, MRC_PLANE_WEIGHT_DEFAULT);
		break;
	case MRC_CMD_EV_PROFILE_NEW:
		mrc_fz_u8(m, MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_GENERATED);
		mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EV_COUNT, 4);
		break;
	case MRC_CMD_EV_PROFILE_SET:
		mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 2);
		mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_EVENT_MASK, 0xf);
		break;
	case MRC_CMD_EV_PROFILE_GET:
		mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 1);
		break;
	case MRC_CMD_EV_PROFILE_DEL:
		mrc_fz_u32(m, MRC_EV_PROFILE_ATTR_ID, 3);
		break;
	case MRC_CMD_CC_PROFILE_NEW:
		mrc_fz_string(m, MRC_CC_PROFILE_ATTR_ALGORITHM, "nscc");
		break;
	case MRC_CMD_CC_PROFILE_SET:
	case MRC_CMD_CC_PROFILE_GET:
	case MRC_CMD_CC_PROFILE_DEL:
		mrc_fz_u32(m, MRC_CC_PROFILE_ATTR_ID, 1);
		break;
	case MRC_CMD_CONN_GET:
		mrc_fz_u32(m, MRC_CONN_ATTR_ID, ctx->conn_id);
		break;
	case MRC_CMD_PATH_SET:
		mrc_fz_u8(m, MRC_PATH_ATTR_STATE, MRC_EV_GOOD);
		/* fall through */
	case MRC_CMD_PATH_PROBE:
		mrc_fz_u32(m, MRC_PATH_ATTR_EV, mrc_fz_pools.v[MRC_FZ_POOL_EV][0]);
		/* fall through */
	case MRC_CMD_PATH_GET:
		mrc_fz_u32(m, MRC_PATH_ATTR_CONN_ID, ctx->conn_id);
		break;
	}
	mrc_fz_nest_end(m, nest);
	mrc_fz_end(m);
}

FIXTURE(mrc_fz)
{
	struct mrc_fz_ctx ctx;
};

FIXTURE_SETUP(mrc_fz)
{
	mrc_fz_ctx_setup(_metadata, &self->ctx);
}

FIXTURE_TEARDOWN(mrc_fz)
{
	mrc_fz_ctx_teardown(_metadata, &self->ctx);
}

/* The kernel registers exactly the uapi's commands, with its contract. */
TEST_F(mrc_fz, ops_match_the_uapi)
{
	const struct mrc_fz_cmd *fc;
	uint32_t fl;
	int cmd;

	for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
		fc = &mrc_fz_cmds[cmd];
		if (!fc->name) {
			TH_LOG("command %d of the uapi has no description here", cmd);
			ASSERT_TRUE(0);
		}
		EXPECT_TRUE(mrc_fz_ops.present[cmd]) TH_LOG("%s not registered", fc->name);
		fl = mrc_fz_ops.flags[cmd];
		EXPECT_EQ(fc->has_do, !!(fl & GENL_CMD_CAP_DO)) TH_LOG("%s do", fc->name);
		EXPECT_EQ(fc->has_dump, !!(fl & GENL_CMD_CAP_DUMP)) TH_LOG("%s dump", fc->name);
		EXPECT_EQ(fc->changes, !!(fl & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)))
			TH_LOG("%s: changes state but open to all, or the reverse", fc->name);
		/* Changes are for the netns's own admin, user namespaces included. */
		EXPECT_FALSE(!!(fl & GENL_ADMIN_PERM)) TH_LOG("%s", fc->name);
	}
	EXPECT_EQ(MRC_CMD_MAX, mrc_fz_ops.nops);
}

TEST_F_TIMEOUT(mrc_fz, every_command_survives_malformed_requests, 1800)
{
	unsigned int iters = mrc_fz_iters(), sent = 0, rej = 0, ext = 0, core = 0;
	static struct mrc_fz_run run;
	struct mrc_fz_count *c, unknown = {};
	struct timespec t0, t1;
	int cmd, i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
		ASSERT_EQ(0, mrc_fz_batch(&self->ctx, &run, cmd, iters))
			TH_LOG("%s: the fuzz could not go on", mrc_fz_cmd_name(cmd));
	}
	for (i = 0; i < (int)ARRAY_SIZE(mrc_fz_unknown_cmds); i++) {
		ASSERT_EQ(0, mrc_fz_batch(&self->ctx, &run, mrc_fz_unknown_cmds[i],
					  iters / 10 + 1));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	printf("# %-15s %6s %5s %8s %8s %9s %6s %7s\n", "command", "sent", "dump",
	       "accepted", "rejected", "w/extack", "core", "dropped");
	for (cmd = 0; cmd < 256; cmd++) {
		c = &run.count[cmd];
		if (!c->sent)
			continue;
		sent += c->sent;
		rej += c->rejected;
		ext += c->extack;
		core += c->core;
		if (cmd < 1 || cmd > MRC_CMD_MAX) {
			unknown.sent += c->sent;
			unknown.dumps += c->dumps;
			unknown.rejected += c->rejected;
			unknown.core += c->core;
			unknown.dropped += c->dropped;
			unknown.accepted += c->accepted;
			unknown.extack += c->extack;
			continue;
		}
		printf("# %-15s %6u %5u %8u %8u %9u %6u %7u\n", mrc_fz_cmd_name(cmd),
		       c->sent, c->dumps, c->accepted, c->rejected, c->extack,
		       c->core, c->dropped);
	}
	printf("# %-15s %6u %5u %8u %8u %9u %6u %7u\n", "(unknown cmds)",
	       unknown.sent, unknown.dumps, unknown.accepted, unknown.rejected,
	       unknown.extack, unknown.core, unknown.dropped);
	printf("# %u requests in %.1f s; %u rejected, %u of them by the netlink core; "
	       "extack on %u of the %u the family rejected\n", sent,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, rej, core,
	       ext, rej - core);
	printf("# %d distinct extack messages%s\n", run.nmsgs,
	       getenv("MRC_NL_FUZZ_VERBOSE") ? ":" : " (MRC_NL_FUZZ_VERBOSE=1 lists them)");
	for (i = 0; getenv("MRC_NL_FUZZ_VERBOSE") && i < run.nmsgs; i++)
		printf("#   %5u  %s\n", run.msgs[i].n, run.msgs[i].text);
	EXPECT_EQ(0U, run.failures);
	EXPECT_EQ(rej - core, ext);
	for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
		EXPECT_LE(iters, run.count[cmd].sent) TH_LOG("%s", mrc_fz_cmd_name(cmd));
	}
}

/*
 * Every command's well-formed request cut at every byte, and with
 * nlmsg_len lying both ways: the core drops what it cannot frame, refuses
 * a short genl header, and whatever gets further is judged as above.
 */
TEST_F_TIMEOUT(mrc_fz, truncated_and_lying_headers, 900)
{
	static struct mrc_fz_run run;
	struct mrc_fz_msg *m = &mrc_fz_req;
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->buf;
	unsigned int sent = 0;
	struct mrc_fz_batch b;
	uint32_t seq, longer[4];
	size_t full, cut;
	int cmd, dump, i, err = 0;

	for (cmd = 1; cmd <= MRC_CMD_MAX && !err; cmd++) {
		for (dump = 0; dump < 2 && !err; dump++) {
			memset(&b, 0, sizeof(b));
			err = mrc_fz_begin(&self->ctx, &run, &b, cmd);
			mrc_fz_valid(m, &self->ctx, cmd, dump);
			full = m->len;
			longer[0] = full + 1;
			longer[1] = full + 4;
			longer[2] = full + 64;
			longer[3] = UINT32_MAX;
			/* Cut: datagram and nlmsg_len agree. */
			for (cut = 0; cut <= full && !err; cut++) {
				mrc_fz_valid(m, &self->ctx, cmd, dump);
				seq = nlh->nlmsg_seq = self->ctx.sk.seq;
				self->ctx.sk.seq += 2;
				if (cut >= 4)
					nlh->nlmsg_len = cut;
				snprintf(m->what, sizeof(m->what), "cut=%zu", cut);
				err = mrc_fz_one(&self->ctx, &run, &b, m, cut, seq);
			}
			/* nlmsg_len shorter or longer than the datagram. */
			for (i = 0; i < (int)full + 4 && !err; i++) {
				mrc_fz_valid(m, &self->ctx, cmd, dump);
				seq = nlh->nlmsg_seq = self->ctx.sk.seq;
				self->ctx.sk.seq += 2;
				nlh->nlmsg_len = i < (int)full ? (uint32_t)i :
						 longer[i - full];
				cut = NLMSG_ALIGN(nlh->nlmsg_len);
				/* No second message in the rest: its length reads 0. */
				if (i < (int)full && cut + NLMSG_HDRLEN <= full)
					memset(m->buf + cut, 0, 4);
				snprintf(m->what, sizeof(m->what), "nlmsg_len=%u/%zu",
					 nlh->nlmsg_len, full);
				err = mrc_fz_one(&self->ctx, &run, &b, m, full, seq);
			}
			/* Not a request at all. */
			mrc_fz_valid(m, &self->ctx, cmd, dump);
			seq = nlh->nlmsg_seq = self->ctx.sk.seq;
			self->ctx.sk.seq += 2;
			nlh->nlmsg_flags &= ~NLM_F_REQUEST;
			snprintf(m->what, sizeof(m->what), "no-request-flag");
			if (!err)
				err = mrc_fz_one(&self->ctx, &run, &b, m, full, seq);
			mrc_fz_finish(&self->ctx, &run, &b);
			sent += run.iter;
		}
	}
	ASSERT_EQ(0, err);
	printf("# %u requests; extack on %u of the %u the family rejected\n", sent,
	       mrc_fz_total(&run, offsetof(struct mrc_fz_count, extack)),
	       mrc_fz_total(&run, offsetof(struct mrc_fz_count, rejected)) -
	       mrc_fz_total(&run, offsetof(struct mrc_fz_count, core)));
	EXPECT_EQ(0U, run.failures);
}

/* The largest explicit EV profile the uapi allows is read back whole. */
TEST_F(mrc_fz, largest_explicit_profile_reads_back)
{
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	struct mrc_fz_str text = {};
	const char *p;
	int evs = 0;

	mrc_fz_req_init(m, MRC_CMD_EV_PROFILE_NEW, false);
	mrc_fz_gen_big_evp(m, MRC_CMD_EV_PROFILE_NEW);
	ASSERT_EQ(0, mrc_fz_do(&self->ctx.sk, m, &text, NULL))
		TH_LOG("%s", mrc_fz_last.msg);
	EXPECT_EQ(1, mrc_fz_last.replies) TH_LOG("NEW sent no reply");

	mrc_fz_reset(&text);
	EXPECT_EQ(0, mrc_fz_get(&self->ctx.sk, MRC_CMD_EV_PROFILE_GET,
				MRC_ATTR_EV_PROFILE, MRC_EV_PROFILE_ATTR_ID, 4, &text))
		TH_LOG("GET: %d \"%s\"", mrc_fz_last.err, mrc_fz_last.msg);
	for (p = text.p; (p = strstr(p, "index=")); p++)
		evs++;
	EXPECT_EQ(MRC_MAX_EVS_PER_PROFILE, evs);

	mrc_fz_reset(&text);
	mrc_fz_req_init(m, MRC_CMD_EV_PROFILE_SET, false);
	mrc_fz_gen_big_evp(m, MRC_CMD_EV_PROFILE_SET);
	EXPECT_EQ(0, mrc_fz_do(&self->ctx.sk, m, &text, NULL))
		TH_LOG("%s", mrc_fz_last.msg);
	EXPECT_EQ(1, mrc_fz_last.replies) TH_LOG("SET sent no reply");
	mrc_fz_free(&text);
}

/* ---- privileges ---- */

enum mrc_fz_who {
	MRC_FZ_NOBODY,		/* uid/gid 65534, no capabilities */
	MRC_FZ_NO_NET_ADMIN,	/* root without CAP_NET_ADMIN */
	MRC_FZ_USERNS,		/* root of a new user namespace, netns A */
	MRC_FZ_USERNS_OLD_SOCK,	/* same, on a socket opened as real root */
};

/*
 * vm-test runs the tests chrooted into the host's root, and the kernel
 * refuses CLONE_NEWUSER to a chrooted caller: take PID 1's root first (the
 * same root where the tests are not chrooted). Children only.
 */
static int mrc_fz_unchroot(void)
{
	return chroot("/proc/1/root") || chdir("/") ? -1 : 0;
}

static int mrc_fz_become(enum mrc_fz_who who)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1u << CAP_NET_ADMIN;

	switch (who) {
	case MRC_FZ_NOBODY:
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			return -1;
		return 0;
	case MRC_FZ_NO_NET_ADMIN:
		if (syscall(SYS_capget, &h, d))
			return -1;
		d[0].effective &= ~bit;
		d[0].permitted &= ~bit;
		d[0].inheritable &= ~bit;
		return syscall(SYS_capset, &h, d);
	default:
		return mrc_fz_unchroot() || unshare(CLONE_NEWUSER) ? -1 : 0;
	}
}

/* Child: every command as @who; 0 when all answers are as they must be. */
static int mrc_fz_as(struct mrc_fz_ctx *ctx, enum mrc_fz_who who,
		     struct mrc_fz_str (*root)[2])
{
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	struct mrc_fz_str text = {};
	struct mrc_fz_sock s = { .fd = -1 };
	int cmd, dump, err, bad = 0;

	if (who == MRC_FZ_USERNS_OLD_SOCK && mrc_fz_open(&s, NETLINK_GENERIC))
		return 100;
	if (mrc_fz_become(who)) {
		printf("# cannot become who we test: %s\n", strerror(errno));
		return 101;
	}
	if (s.fd < 0 && mrc_fz_open(&s, NETLINK_GENERIC))
		return 102;
	for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
		for (dump = 0; dump < 2; dump++) {
			if (!(mrc_fz_ops.flags[cmd] & (dump ? GENL_CMD_CAP_DUMP :
							 GENL_CMD_CAP_DO)))
				continue;
			mrc_fz_reset(&text);
			mrc_fz_valid(m, ctx, cmd, dump);
			err = mrc_fz_do(&s, m, &text, NULL);
			if (mrc_fz_cmds[cmd].changes ? err != -EPERM : err ||
			    strcmp(text.p, root[cmd][dump].p)) {
				printf("# FAIL %s%s: %d \"%s\"\n#   got:  %.300s\n#   root: %.300s\n",
				       mrc_fz_cmd_name(cmd), dump ? " dump" : "", err,
				       mrc_fz_last.msg, text.p, root[cmd][dump].p ?: "");
				bad++;
			}
		}
	}
	mrc_fz_free(&text);
	return bad > 99 ? 99 : bad;
}

FIXTURE(mrc_fz_priv)
{
	struct mrc_fz_ctx ctx;
};

FIXTURE_VARIANT(mrc_fz_priv)
{
	enum mrc_fz_who who;
};

FIXTURE_VARIANT_ADD(mrc_fz_priv, nobody)
{
	.who = MRC_FZ_NOBODY,
};

FIXTURE_VARIANT_ADD(mrc_fz_priv, root_without_net_admin)
{
	.who = MRC_FZ_NO_NET_ADMIN,
};

FIXTURE_VARIANT_ADD(mrc_fz_priv, user_namespace_root)
{
	.who = MRC_FZ_USERNS,
};

FIXTURE_VARIANT_ADD(mrc_fz_priv, user_namespace_root_old_socket)
{
	.who = MRC_FZ_USERNS_OLD_SOCK,
};

FIXTURE_SETUP(mrc_fz_priv)
{
	mrc_fz_ctx_setup(_metadata, &self->ctx);
}

FIXTURE_TEARDOWN(mrc_fz_priv)
{
	mrc_fz_ctx_teardown(_metadata, &self->ctx);
}

/*
 * Without CAP_NET_ADMIN over netns A every change is EPERM and changes
 * nothing; every read answers as it answers root.
 */
TEST_F(mrc_fz_priv, changes_refused_reads_allowed)
{
	static struct mrc_fz_str root[MRC_CMD_MAX + 1][2];
	struct mrc_fz_str st[3] = {};
	int cmd, dump, status, i;
	pid_t pid;

	for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
		for (dump = 0; dump < 2; dump++) {
			mrc_fz_reset(&root[cmd][dump]);
			if (mrc_fz_cmds[cmd].changes ||
			    !(mrc_fz_ops.flags[cmd] & (dump ? GENL_CMD_CAP_DUMP :
							 GENL_CMD_CAP_DO)))
				continue;
			mrc_fz_valid(&mrc_fz_tmp, &self->ctx, cmd, dump);
			ASSERT_EQ(0, mrc_fz_do(&self->ctx.sk, &mrc_fz_tmp,
					       &root[cmd][dump], NULL))
				TH_LOG("%s as root: %s", mrc_fz_cmd_name(cmd),
				       mrc_fz_last.msg);
		}
	}
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(mrc_fz_as(&self->ctx, variant->who, root));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_LE(0, mrc_fz_state(&self->ctx.sk, st));
	EXPECT_TRUE(mrc_fz_state_eq(self->ctx.base, st))
		mrc_fz_state_diff(self->ctx.base, st);
	for (i = 0; i < 3; i++)
		mrc_fz_free(&st[i]);
}

/* ---- another network namespace ---- */

/* Child in a netns of its own: nothing of A to see, reach or change. */
static int mrc_fz_elsewhere(struct mrc_fz_ctx *ctx, bool userns)
{
	static const char * const objs[] = {
		"plane=", "ev-profile=", "cc-profile=", "conn=", "path=",
	};
	struct mrc_fz_msg *m = &mrc_fz_tmp;
	struct mrc_fz_str text = {};
	struct mrc_fz_sock s;
	struct mrc_fz_resp r;
	int pass, cmd, dump, err, bad = 0;
	unsigned int i;
	size_t len;

	if ((userns && mrc_fz_unchroot()) ||
	    unshare(CLONE_NEWNET | (userns ? CLONE_NEWUSER : 0)) ||
	    mrc_fz_open(&s, NETLINK_GENERIC)) {
		printf("# cannot get a netns of our own: %s\n", strerror(errno));
		return 100;
	}
	/* Pass 0 names A's objects; pass 1 creates objects of its own. */
	for (pass = 0; pass < 2; pass++) {
		for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
			if (mrc_fz_cmds[cmd].creates != pass)
				continue;
			for (dump = 0; dump < 2; dump++) {
				if (!(mrc_fz_ops.flags[cmd] & (dump ? GENL_CMD_CAP_DUMP :
								 GENL_CMD_CAP_DO)))
					continue;
				mrc_fz_reset(&text);
				mrc_fz_valid(m, ctx, cmd, dump);
				err = mrc_fz_do(&s, m, &text, NULL);
				for (i = 0; i < ARRAY_SIZE(objs); i++)
					if (strstr(text.p, objs[i]) && !pass)
						break;
				if (i < ARRAY_SIZE(objs) ||
				    (pass || cmd == MRC_CMD_INFO_GET ||
				     (dump && cmd != MRC_CMD_PATH_GET) ? err :
				     (err != -ENOENT && err != -ENODEV) ||
				     !mrc_fz_last.msg[0])) {
					printf("# FAIL %s%s: %d \"%s\" %.300s\n",
					       mrc_fz_cmd_name(cmd), dump ? " dump" : "",
					       err, mrc_fz_last.msg, text.p);
					bad++;
				}
			}
		}
	}
	/* And random requests naming A's objects, from here. */
	for (cmd = 1; cmd <= MRC_CMD_MAX; cmd++) {
		for (i = 0; i < 30; i++) {
			len = mrc_fz_gen(&mrc_fz_req, cmd, s.seq);
			err = mrc_fz_xfer(&s, mrc_fz_req.buf, len, s.seq, &r, NULL, NULL);
			s.seq += 2;
			if (err) {
				printf("# FAIL %s: no answer\n", mrc_fz_cmd_name(cmd));
				bad++;
				break;
			}
		}
	}
	mrc_fz_free(&text);
	return bad > 99 ? 99 : bad;
}

FIXTURE(mrc_fz_iso)
{
	struct mrc_fz_ctx ctx;
};

FIXTURE_VARIANT(mrc_fz_iso)
{
	bool userns;
};

FIXTURE_VARIANT_ADD(mrc_fz_iso, netns)
{
	.userns = false,
};

FIXTURE_VARIANT_ADD(mrc_fz_iso, user_and_netns)
{
	.userns = true,
};

FIXTURE_SETUP(mrc_fz_iso)
{
	mrc_fz_ctx_setup(_metadata, &self->ctx);
}

FIXTURE_TEARDOWN(mrc_fz_iso)
{
	mrc_fz_ctx_teardown(_metadata, &self->ctx);
}

TEST_F(mrc_fz_iso, first_netns_out_of_reach)
{
	struct mrc_fz_str st[3] = {};
	struct mrc_fz_collect col = { .obj = MRC_ATTR_CONN, .a = MRC_CONN_ATTR_ID };
	int status, i;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(mrc_fz_elsewhere(&self->ctx, variant->userns));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_LE(0, mrc_fz_state(&self->ctx.sk, st));
	EXPECT_TRUE(mrc_fz_state_eq(self->ctx.base, st))
		mrc_fz_state_diff(self->ctx.base, st);
	ASSERT_EQ(0, mrc_fz_dump(&self->ctx.sk, MRC_CMD_CONN_GET, NULL, &col));
	EXPECT_EQ(1, col.n);
	EXPECT_EQ(self->ctx.conn_id, col.va[0]);
	for (i = 0; i < 3; i++)
		mrc_fz_free(&st[i]);
}

TEST_HARNESS_MAIN
