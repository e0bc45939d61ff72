// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_inject: forged and malformed MRC packets aimed at a live connection,
 * for mrc_inject.sh. Packets are built from the uapi structs of
 * mrc_wire.h and sent as UDP to one plane address of the target host: by a
 * raw IPv4 socket (the UDP source port is the packet's EV, the source
 * address and the checksum may lie), or by a UDP socket for datagrams
 * beyond the MTU (the kernel fragments them). Current PSNs are learnt,
 * and real packets captured for replay, by sniffing the connection's
 * packets to the target on a local interface (AF_PACKET).
 *
 * Several modes may run in one go (-m a,b,c), one after the other. After
 * each, one JSON line on stdout says what went out and, for each packet,
 * the drop counter (a /proc/net/mrc_stat name) the receiver must bump;
 * with -N, also the target netns's counters before the mode and once all
 * that is due has been counted (or the -T timeout passed):
 *   {"mode":M,"seed":S,"sent":N,"bytes":B,"psn_hint":P,"captured":C,
 *    "captured_data":D,"accepted":A,"expect":{"RxDropShort":n,...},
 *    "before":{...},"after":{...}}
 * "accepted" counts packets a receiver rightly takes (replayed SACKs); a
 * key "X+Y" expects the sum of both counters; a mode that could not run
 * (no PSN learnt, nothing captured) reports {"step":N,"mode":M,"error":E}
 * and the next ones still run. IPv4 only.
 * Exit status: 0 sent, 1 usage, 2 runtime error.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/mrc_netlink.h>
#include <linux/mrc_wire.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "mrc_lib.h"

#define HDR		sizeof(struct mrc_hdr)
#define MAX_UDP		65507		/* largest IPv4 UDP payload */
#define MAX_CAPTURE	64
#define MAX_EVS		256
#define MAX_TAPS	8		/* interfaces sniffed */
#define PSN_FAR		(1u << 20)	/* beyond any receive window */
#define PSN_OLD		10000u		/* behind anything still in flight */
#define PACE_FRAMES	32
#define PACE_NS		2000000
#define SETTLE_MS	50
/*
 * A starved guest may stall that long; times MRC_TIME_SCALE (a debug
 * kernel, two guests on two cores: 5 s passed without one SACK on the
 * watched plane, and the SACK and NACK steps had no PSN)
 */
#define SNIFF_MS	5000
#define MAX_MODES	16

/* Drop counters a forged packet may be due under (mrc_stat names). */
enum inj_reason {
	R_SHORT, R_VERSION, R_TYPE, R_LENGTH, R_MALFORMED, R_NO_CONN,
	R_TOKEN, R_STATE, R_PSN_WINDOW, R_DUPLICATE, R_PLANE, R_ACK, R_CSUM,
	R_DUP_OR_WINDOW,	/* one of two, the receiver's window decides */
	R_CSUM_ANY,		/* MRC's csum, or UDP's count if UDP drops it */
	R_MAX
};

static const char * const inj_reason_names[R_MAX] = {
	[R_SHORT]	= "RxDropShort",
	[R_VERSION]	= "RxDropVersion",
	[R_TYPE]	= "RxDropType",
	[R_LENGTH]	= "RxDropLength",
	[R_MALFORMED]	= "RxDropMalformed",
	[R_NO_CONN]	= "RxDropNoConn",
	[R_TOKEN]	= "RxDropToken",
	[R_STATE]	= "RxDropState",
	[R_PSN_WINDOW]	= "RxDropPsnWindow",
	[R_DUPLICATE]	= "RxDropDuplicate",
	[R_PLANE]	= "RxDropPlane",
	[R_ACK]		= "RxDropAck",
	[R_CSUM]	= "RxDropCsum",
	[R_DUP_OR_WINDOW] = "RxDropDuplicate+RxDropPsnWindow",
	[R_CSUM_ANY]	= "RxDropCsum+UdpInCsumErrors",
};

/* One real packet of the connection seen on the sniffed interface. */
struct inj_capture {
	uint16_t	sport;
	uint16_t	len;
	uint8_t		*data;
};

struct inj {
	/* options: global, then a step's */
	const char	*netns;
	int		has_tokens;	/* 1: -D, 2: -S */
	const char	*mode;
	bool		has_daddr;
	struct in_addr	daddr;
	struct in_addr	saddr;		/* spoofed source, or 0 */
	uint16_t	port;
	uint32_t	dst_token;
	uint32_t	src_token;
	long		count;
	uint64_t	seed;
	bool		has_psn;
	uint32_t	psn;		/* -P, or learnt from the capture */
	char		*iface;
	long		wait_ms;
	long		timeout_ms;
	int		stat_fd;	/* the target's mrc_stat, or -1 */
	int		snmp_fd;	/* and its snmp */
	struct nl_sock	*nl;		/* generic netlink in the target's netns */
	struct nl_sock	*own_nl;	/* and in ours: the -S connection's */
	int		family;
	uint32_t	evs[MAX_EVS];
	int		nevs;
	int		step;
	pid_t		end_pid;	/* -K: the transfer ended at the end */
	/* sniffing sockets, one an interface, open until exit (sniff()) */
	struct {
		char	name[IF_NAMESIZE];
		int	fd;
	}		taps[MAX_TAPS];
	int		ntaps;

	/* state */
	uint64_t	rng;
	uint64_t	rng_seed;	/* of the current mode */
	uint8_t		flags;		/* MRC_F_PSN24 when the connection uses it */
	struct in_addr	laddr;		/* our address towards daddr */
	int		mtu;
	int		raw_fd;
	int		udp_fd;
	struct inj_capture cap[MAX_CAPTURE];
	int		ncap;
	int		cap_data;	/* DATA packets among them */
	long		sent;
	long		frames;		/* since the last pause */
	long		bytes;
	long		accepted;
	/* packets the host's softirq backlogs dropped during the mode */
	long		softnet_drops;
	long		expect[R_MAX];
	uint8_t		pkt[MAX_UDP + 64];
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mrc_inject: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* splitmix64: the same seed gives the same packets. */
static uint64_t rnd64(struct inj *in)
{
	uint64_t z = (in->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd(struct inj *in, uint32_t n)
{
	return n ? (uint32_t)(rnd64(in) % n) : 0;
}

static void rnd_fill(struct inj *in, uint8_t *b, size_t len)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i % 8))
			v = rnd64(in);
		b[i] = (uint8_t)(v >> (8 * (i % 8)));
	}
}

/* A non-zero token that is not @a nor @b. */
static uint32_t rnd_token(struct inj *in, uint32_t a, uint32_t b)
{
	uint32_t t;

	do {
		t = (uint32_t)rnd64(in);
	} while (!t || t == a || t == b);
	return t;
}

static uint32_t psn_mask(const struct inj *in)
{
	return in->flags & MRC_F_PSN24 ? 0xffffffu : 0xffffffffu;
}

static uint32_t psn_add(const struct inj *in, uint32_t psn, int64_t n)
{
	return (uint32_t)(psn + (uint32_t)n) & psn_mask(in);
}

/* Serial comparison: is @b after @a? */
static bool psn_after(const struct inj *in, uint32_t a, uint32_t b)
{
	uint32_t d = (b - a) & psn_mask(in), half = (psn_mask(in) >> 1) + 1;

	return d && d < half;
}

/* ---- building packets: header, then one valid body per type */

static size_t put_hdr(struct inj *in, uint8_t *b, int ver, int type,
		      uint32_t body_len, uint32_t dst, uint32_t src)
{
	struct mrc_hdr h = {
		.ver_type = (uint8_t)(ver << 4 | (type & 0xf)),
		.flags = in->flags,
		.body_len = htons((uint16_t)body_len),
		.dst_token = htonl(dst),
		.src_token = htonl(src),
		.ev = htonl(1024 + rnd(in, 64512)),
	};

	memcpy(b, &h, sizeof(h));
	return sizeof(h);
}

/* The fixed body of @type (SYN and SYN_ACK: with no plane entry). */
static size_t body_size(int type)
{
	switch (type) {
	case MRC_PKT_DATA:		return sizeof(struct mrc_data);
	case MRC_PKT_SACK:		return sizeof(struct mrc_sack);
	case MRC_PKT_NACK:		return sizeof(struct mrc_nack);
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_REPLY:	return sizeof(struct mrc_probe);
	case MRC_PKT_SYN:
	case MRC_PKT_SYN_ACK:		return sizeof(struct mrc_syn);
	case MRC_PKT_FIN:		return sizeof(struct mrc_fin);
	case MRC_PKT_RST:		return sizeof(struct mrc_rst);
	}
	return 0;
}

static size_t put_data(struct inj *in, uint8_t *b, uint32_t psn,
		       size_t payload)
{
	struct mrc_data d = {
		.psn = htonl(psn),
		.plane = htons(0),
	};

	memcpy(b, &d, sizeof(d));
	rnd_fill(in, b + sizeof(d), payload);
	return sizeof(d) + payload;
}

static size_t put_sack(uint8_t *b, uint32_t cum, uint32_t base,
		       uint64_t bitmap, uint32_t trig)
{
	struct mrc_sack s = {
		.cum_psn = htonl(cum),
		.sack_base = htonl(base),
		.bitmap = htobe64(bitmap),
		.trig_psn = htonl(trig),
		.rwnd = htonl(0),		/* would stall the sender */
		.plane_up = htons(1),		/* would leave plane 0 alone */
	};

	memcpy(b, &s, sizeof(s));
	return sizeof(s);
}

static size_t put_nack(struct inj *in, uint8_t *b, uint32_t psn, uint32_t cum)
{
	struct mrc_nack n = {
		.psn = htonl(psn),
		.cum_psn = htonl(cum),
		.reason = (uint8_t)(MRC_NACK_TRIMMED + rnd(in, MRC_NACK_UNEXPECTED)),
	};

	memcpy(b, &n, sizeof(n));
	return sizeof(n);
}

static size_t put_probe(uint8_t *b, uint32_t id, uint32_t tsval)
{
	struct mrc_probe p = {
		.probe_id = htonl(id),
		.tsval = htonl(tsval),
		.plane_up = htons(0xf),
	};

	memcpy(b, &p, sizeof(p));
	return sizeof(p);
}

/* SYN / SYN_ACK advertising plane 0 at our address. */
static size_t put_syn(struct inj *in, uint8_t *b)
{
	struct mrc_syn s = {
		.isn = htonl((uint32_t)rnd64(in) & psn_mask(in)),
		.rwnd = htonl(1 << 20),
		.src_port = htons(9),
		.dst_port = htons(9),
		.mss = htons(1400),
		.sock_type = MRC_SYN_STREAM,
		.nplanes = 1,
	};
	struct mrc_wire_plane p = {
		.plane = 0,
		.flags = MRC_PLANE_F_V4,
		.udp_port = htons(in->port),
		.addr4 = in->laddr.s_addr,
	};

	memcpy(b, &s, sizeof(s));
	memcpy(b + sizeof(s), &p, sizeof(p));
	return sizeof(s) + sizeof(p);
}

/*
 * A valid body of @type at @b (DATA: @payload bytes of it, at least 1),
 * PSN fields around the hint. Return: its length.
 */
static size_t put_body(struct inj *in, uint8_t *b, int type, size_t payload)
{
	uint32_t psn = in->psn;
	struct mrc_fin f = { .end_psn = htonl(psn) };
	struct mrc_rst r = { .reason = htonl(ECONNRESET) };

	switch (type) {
	case MRC_PKT_DATA:
		return put_data(in, b, psn_add(in, psn, -(int64_t)PSN_OLD),
				payload ? payload : 1);
	case MRC_PKT_SACK:
		return put_sack(b, psn, psn & ~63u & psn_mask(in), 0,
				psn_add(in, psn, -1));
	case MRC_PKT_NACK:
		return put_nack(in, b, psn_add(in, psn, -1), psn);
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_REPLY:
		return put_probe(b, (uint32_t)rnd64(in), 0);
	case MRC_PKT_SYN:
	case MRC_PKT_SYN_ACK:
		return put_syn(in, b);
	case MRC_PKT_FIN:
		memcpy(b, &f, sizeof(f));
		return sizeof(f);
	case MRC_PKT_RST:
		memcpy(b, &r, sizeof(r));
		return sizeof(r);
	}
	return 0;
}

/* A whole valid packet of @type with tokens @dst/@src. Return: length. */
static size_t build(struct inj *in, int type, uint32_t dst, uint32_t src,
		    size_t payload)
{
	uint8_t *b = in->pkt;
	size_t body = put_body(in, b + HDR, type, payload);

	put_hdr(in, b, MRC_WIRE_VERSION, type, body, dst, src);
	return HDR + body;
}

/* Any type but SYN (a SYN goes to the listeners: not our business). */
static int rnd_conn_type(struct inj *in)
{
	static const int types[] = {
		MRC_PKT_DATA, MRC_PKT_SACK, MRC_PKT_NACK, MRC_PKT_PROBE,
		MRC_PKT_PROBE_REPLY, MRC_PKT_SYN_ACK, MRC_PKT_FIN, MRC_PKT_RST,
	};

	return types[rnd(in, sizeof(types) / sizeof(types[0]))];
}

/* ---- sending */

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)b[i] << 8 | b[i + 1];
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	return sum;
}

/* UDP checksum over the IPv4 pseudo header, host order, never 0. */
static uint16_t udp_csum(struct in_addr s, struct in_addr d,
			 const uint8_t *udp, size_t len)
{
	uint32_t sum = 0;
	uint16_t c;

	sum = csum_add(sum, (const uint8_t *)&s.s_addr, 4);
	sum = csum_add(sum, (const uint8_t *)&d.s_addr, 4);
	sum += IPPROTO_UDP + (uint32_t)len;
	sum = csum_add(sum, udp, len);
	c = csum_fold(sum);
	return c ? c : 0xffff;
}

/*
 * A pause every PACE_FRAMES frames: a burst must not overflow the
 * receiving CPU's backlog (netdev_max_backlog), where a drop would go
 * uncounted by MRC.
 */
static void pace(struct inj *in, size_t frames)
{
	struct timespec ts = { .tv_nsec = PACE_NS };

	in->frames += (long)frames;
	if (in->frames < PACE_FRAMES)
		return;
	in->frames = 0;
	nanosleep(&ts, NULL);
}

/*
 * Send @len bytes of in->pkt as one UDP datagram from source port @sport:
 * raw IPv4 up to the MTU (spoofed source with -a, a wrong checksum when
 * @bad_csum), else through the UDP socket. Count it.
 */
static void send_sport(struct inj *in, size_t len, uint16_t sport,
		       bool bad_csum)
{
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_addr = in->daddr,
		.sin_port = htons(in->port),
	};
	uint8_t frame[1600];
	struct iphdr *ip = (struct iphdr *)frame;
	struct udphdr *uh = (struct udphdr *)(ip + 1);
	struct in_addr src = in->saddr.s_addr ? in->saddr : in->laddr;
	size_t total = sizeof(*ip) + sizeof(*uh) + len;
	uint16_t c;
	ssize_t n;

	if (total > (size_t)in->mtu || total > sizeof(frame)) {
		if (in->saddr.s_addr || bad_csum)
			die("%zu bytes do not fit the MTU %d of a raw packet",
			    len, in->mtu);
		n = sendto(in->udp_fd, in->pkt, len, 0,
			   (struct sockaddr *)&to, sizeof(to));
	} else {
		memset(ip, 0, sizeof(*ip) + sizeof(*uh));
		ip->version = 4;
		ip->ihl = 5;
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		ip->tot_len = htons((uint16_t)total);
		ip->saddr = src.s_addr;
		ip->daddr = in->daddr.s_addr;
		uh->source = htons(sport);
		uh->dest = htons(in->port);
		uh->len = htons((uint16_t)(sizeof(*uh) + len));
		memcpy(uh + 1, in->pkt, len);
		c = udp_csum(src, in->daddr, (uint8_t *)uh,
			     sizeof(*uh) + len);
		/* wrong, but not 0: 0 would mean "no checksum" */
		if (bad_csum)
			c = (c ^ 0x5555) ? (c ^ 0x5555) : 0x1234;
		uh->check = htons(c);
		n = sendto(in->raw_fd, frame, total, 0,
			   (struct sockaddr *)&to, sizeof(to));
	}
	if (n < 0)
		die("sendto %s: %s", inet_ntoa(in->daddr), strerror(errno));
	in->sent++;
	in->bytes += (long)len;
	pace(in, 1 + total / (size_t)in->mtu);
}

/* Send in->pkt with its header's EV as source port; due under @reason. */
static void send_pkt(struct inj *in, size_t len, enum inj_reason reason)
{
	uint16_t sport = 1024 + (uint16_t)rnd(in, 64512);

	if (len >= HDR)
		sport = (uint16_t)ntohl(((struct mrc_hdr *)in->pkt)->ev);
	send_sport(in, len, sport ? sport : 1024,
		   reason == R_CSUM || reason == R_CSUM_ANY);
	if (reason < R_MAX)
		in->expect[reason]++;
}

/* ---- sniffing the connection's packets to the target */

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* An MRC packet to the target connection in a captured IPv4 frame? */
static const uint8_t *sniffed_mrc(const struct inj *in, const uint8_t *f,
				  size_t len, uint16_t *sport, size_t *plen)
{
	const struct iphdr *ip = (const struct iphdr *)f;
	const struct udphdr *uh;
	const struct mrc_hdr *h;
	size_t ihl;

	if (len < sizeof(*ip) || ip->version != 4 ||
	    ip->protocol != IPPROTO_UDP || (ntohs(ip->frag_off) & 0x3fff))
		return NULL;
	ihl = ip->ihl * 4u;
	if (len < ihl + sizeof(*uh) + HDR)
		return NULL;
	uh = (const struct udphdr *)(f + ihl);
	if (ntohs(uh->dest) != in->port ||
	    ntohs(uh->len) < sizeof(*uh) + HDR ||
	    ihl + ntohs(uh->len) > len)
		return NULL;
	h = (const struct mrc_hdr *)(uh + 1);
	if (h->ver_type >> 4 != MRC_WIRE_VERSION ||
	    ntohl(h->dst_token) != in->dst_token)
		return NULL;
	*sport = ntohs(uh->source);
	*plen = ntohs(uh->len) - sizeof(*uh);
	return (const uint8_t *)h;
}

/* Keep one captured MRC packet @m of @len bytes; learn the PSN hints. */
static void keep_capture(struct inj *in, uint16_t sport, const uint8_t *m,
			 size_t len, uint32_t *data_psn, bool *have_data,
			 uint32_t *sack_cum, bool *have_sack)
{
	const struct mrc_hdr *h = (const struct mrc_hdr *)m;
	uint32_t v;

	in->flags = h->flags & MRC_F_PSN24;
	if ((h->ver_type & 0xf) == MRC_PKT_DATA &&
	    len >= HDR + sizeof(struct mrc_data)) {
		v = ntohl(((const struct mrc_data *)(h + 1))->psn);
		if (!*have_data || psn_after(in, *data_psn, v))
			*data_psn = v;
		*have_data = true;
		in->cap_data++;
	} else if ((h->ver_type & 0xf) == MRC_PKT_SACK &&
		   len >= HDR + sizeof(struct mrc_sack)) {
		v = ntohl(((const struct mrc_sack *)(h + 1))->cum_psn);
		if (!*have_sack || psn_after(in, *sack_cum, v))
			*sack_cum = v;
		*have_sack = true;
	}
	in->cap[in->ncap].sport = sport;
	in->cap[in->ncap].len = (uint16_t)len;
	in->cap[in->ncap].data = malloc(len);
	if (!in->cap[in->ncap].data)
		die("out of memory");
	memcpy(in->cap[in->ncap].data, m, len);
	in->ncap++;
}

/*
 * Watch @iface (both directions) for up to SNIFF_MS or until MAX_CAPTURE
 * packets of the connection to the target were seen: keep them, and take
 * the PSN hint from the newest DATA (the target's next expected PSN, about)
 * or, failing that, the newest SACK (the target's oldest unacked PSN).
 *
 * Closing a packet socket waits for an RCU grace period, and so does
 * binding one that has a protocol already. Under the debug kernel, with
 * the guest's CPUs busy with the transfer, one such wait took over 10
 * minutes (27 Nov: "task mrc_inject blocked for more than 614 seconds",
 * in packet_do_bind() and in packet_release()). So a socket starts with
 * no protocol (bind() then only adds its hook), stays open for every
 * step that sniffs the same interface, and closes at exit, after -K
 * ended the transfer. The sniffing window starts once it is bound; what
 * it queued before is old and drained first.
 */
static int tap_open(struct inj *in)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
	};
	struct timeval tv = { .tv_usec = 100000 };
	int fd, i;

	for (i = 0; i < in->ntaps; i++)
		if (!strcmp(in->taps[i].name, in->iface))
			return in->taps[i].fd;
	if (in->ntaps == MAX_TAPS || strlen(in->iface) >= IF_NAMESIZE)
		die("cannot sniff %s: %d interfaces at most", in->iface,
		    MAX_TAPS);
	fd = socket(AF_PACKET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("AF_PACKET socket: %s", strerror(errno));
	sll.sll_ifindex = (int)if_nametoindex(in->iface);
	if (!sll.sll_ifindex)
		die("no interface %s", in->iface);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		die("AF_PACKET on %s: %s", in->iface, strerror(errno));
	strcpy(in->taps[in->ntaps].name, in->iface);
	in->taps[in->ntaps++].fd = fd;
	return fd;
}

/* Throw away what @fd queued before now. */
static void tap_drain(int fd)
{
	static uint8_t f[2048];

	while (recv(fd, f, sizeof(f), MSG_DONTWAIT | MSG_TRUNC) >= 0)
		;
}

static void sniff(struct inj *in)
{
	bool have_data = false, have_sack = false;
	uint32_t data_psn = 0, sack_cum = 0;
	const struct mrc_hdr *h;
	long deadline;
	static uint8_t f[70000];
	const uint8_t *m;
	uint16_t sport;
	size_t plen, one;
	ssize_t n;
	int fd;

	fd = tap_open(in);
	tap_drain(fd);
	deadline = now_ms() + SNIFF_MS * mrc_lib_time_scale();
	while (in->ncap < MAX_CAPTURE && now_ms() < deadline) {
		n = recv(fd, f, sizeof(f), 0);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			die("recv on %s: %s", in->iface, strerror(errno));
		m = sniffed_mrc(in, f, (size_t)n, &sport, &plen);
		if (!m)
			continue;
		/*
		 * The tap sees a GSO train of MRC packets before the stack
		 * splits it: one UDP datagram on the wire per MRC packet,
		 * each as long as its header says.
		 */
		while (plen >= HDR && in->ncap < MAX_CAPTURE) {
			h = (const struct mrc_hdr *)m;
			one = HDR + ntohs(h->body_len);
			if (one > plen)
				break;
			keep_capture(in, sport, m, one, &data_psn, &have_data,
				     &sack_cum, &have_sack);
			m += one;
			plen -= one;
		}
	}
	if (!in->has_psn && (have_data || have_sack)) {
		in->psn = have_data ? data_psn : sack_cum;
		in->has_psn = true;
	}
}

/* ---- modes */

/*
 * Random bytes that fail the header checks: whatever the dice say, a
 * datagram that would pass them gets a wrong body_len.
 */
static void mode_random(struct inj *in)
{
	long i;

	for (i = 0; i < in->count; i++) {
		size_t len = rnd(in, 1473);
		uint8_t *b = in->pkt, t = 0;
		enum inj_reason r;

		rnd_fill(in, b, len);
		if (len >= HDR)
			t = b[0] & 0xf;
		if (len < HDR)
			r = R_SHORT;
		else if (b[0] >> 4 != MRC_WIRE_VERSION)
			r = R_VERSION;
		else if (t < MRC_PKT_DATA || t >= __MRC_PKT_MAX)
			r = R_TYPE;
		else
			r = R_LENGTH;
		if (r == R_LENGTH && ntohs(((struct mrc_hdr *)b)->body_len) ==
				     len - HDR)
			((struct mrc_hdr *)b)->body_len = htons((uint16_t)(len - HDR + 1));
		send_pkt(in, len, r);
	}
}

/*
 * Truncations of valid packets: shorter than the header; a body_len that
 * owns up to a body shorter than the type's; a SYN_ACK with fewer plane
 * entries than nplanes (all "short"); a body_len that promises more than
 * the datagram holds ("length").
 */
static void mode_truncated(struct inj *in)
{
	struct mrc_hdr *h = (struct mrc_hdr *)in->pkt;
	long i;

	for (i = 0; i < in->count; i++) {
		int type = MRC_PKT_DATA + (int)rnd(in, MRC_PKT_RST);
		size_t len = build(in, type, in->dst_token, in->src_token, 0);
		size_t fixed = body_size(type);

		switch (i % 4) {
		case 0:		/* not even a header */
			send_pkt(in, rnd(in, HDR), R_SHORT);
			break;
		case 1:		/* honest body_len, short body */
			len = HDR + rnd(in, (uint32_t)fixed);
			h->body_len = htons((uint16_t)(len - HDR));
			send_pkt(in, len, R_SHORT);
			break;
		case 2:		/* nplanes 2..16, one entry present */
			len = build(in, MRC_PKT_SYN_ACK, in->dst_token,
				    in->src_token, 0);
			((struct mrc_syn *)(h + 1))->nplanes =
				(uint8_t)(2 + rnd(in, 15));
			send_pkt(in, len, R_SHORT);
			break;
		default:	/* cut short of what body_len says */
			send_pkt(in, HDR + rnd(in, (uint32_t)(len - HDR)),
				 R_LENGTH);
			break;
		}
	}
}

/*
 * Too big: body_len beyond the datagram, up to 65535 ("length"); valid
 * headers on datagrams of MTU size, 9000 bytes and 64 KiB: DATA to no
 * connection ("no-conn"), control packets with bytes after their body
 * ("malformed").
 */
static void mode_oversized(struct inj *in)
{
	static const size_t sizes[] = { 0, 9000, MAX_UDP };
	struct mrc_hdr *h = (struct mrc_hdr *)in->pkt;
	size_t len, big;
	long i;

	for (i = 0; i < in->count; i++) {
		big = sizes[rnd(in, 3)];
		if (!big)
			big = (size_t)in->mtu - sizeof(struct iphdr) -
			      sizeof(struct udphdr);
		switch (i % 3) {
		case 0:
			len = build(in, rnd_conn_type(in), in->dst_token,
				    in->src_token, 1 + rnd(in, 1400));
			if (i % 2)
				h->body_len = htons(0xffff);
			else
				h->body_len = htons((uint16_t)(len - HDR + 1 +
						    rnd(in, 1000)));
			send_pkt(in, len, R_LENGTH);
			break;
		case 1:
			build(in, MRC_PKT_DATA,
			      rnd_token(in, in->dst_token, 0), rnd_token(in, 0, 0),
			      big - HDR - sizeof(struct mrc_data));
			send_pkt(in, big, R_NO_CONN);
			break;
		default:
			len = build(in, MRC_PKT_SACK + (int)rnd(in, 3),
				    in->dst_token, in->src_token, 0);
			rnd_fill(in, in->pkt + len, big - len);
			h->body_len = htons((uint16_t)(big - HDR));
			send_pkt(in, big, R_MALFORMED);
			break;
		}
	}
}

/* Valid packets but for the version (0, 2..15) or the type (0, 10..15). */
static void mode_badhdr(struct inj *in)
{
	struct mrc_hdr *h = (struct mrc_hdr *)in->pkt;
	long i;
	int v, t;

	for (i = 0; i < in->count; i++) {
		size_t len = build(in, rnd_conn_type(in), in->dst_token,
				   in->src_token, 1 + rnd(in, 100));

		if (i % 2) {
			v = (int)rnd(in, 15);
			v = v == MRC_WIRE_VERSION ? 15 : v;
			h->ver_type = (uint8_t)(v << 4 | (h->ver_type & 0xf));
			send_pkt(in, len, R_VERSION);
		} else {
			t = (int)rnd(in, 7);
			t = t ? 9 + t : 0;
			h->ver_type = (uint8_t)(MRC_WIRE_VERSION << 4 | t);
			send_pkt(in, len, R_TYPE);
		}
	}
}

/*
 * Tokens: a dst_token no connection has ("no-conn"; the src_token is
 * random too, so the RST the target answers with names nothing either);
 * the target's token from a stranger, a zero src_token, a SYN that names
 * a receiver (all "token").
 */
static void mode_token(struct inj *in, bool rst_only)
{
	long i;

	for (i = 0; i < in->count; i++) {
		int type = rst_only ? MRC_PKT_RST : rnd_conn_type(in);
		uint32_t stranger = rnd_token(in, in->src_token, in->dst_token);
		size_t len;

		switch (i % 4) {
		case 0:
			len = build(in, type, stranger,
				    rnd_token(in, in->src_token, 0),
				    1 + rnd(in, 100));
			send_pkt(in, len, R_NO_CONN);
			break;
		case 1:
			len = build(in, type, in->dst_token, stranger,
				    1 + rnd(in, 100));
			send_pkt(in, len, R_TOKEN);
			break;
		case 2:
			len = build(in, type, in->dst_token, 0,
				    1 + rnd(in, 100));
			send_pkt(in, len, R_TOKEN);
			break;
		default:
			/*
			 * RST: from the target's own token to itself. SYN:
			 * with no token of its own (its dst_token may be
			 * anything: the token it proposes for early data).
			 */
			len = build(in, rst_only ? MRC_PKT_RST : MRC_PKT_SYN,
				    in->dst_token, in->src_token, 0);
			((struct mrc_hdr *)in->pkt)->src_token =
				rst_only ? htonl(in->dst_token) : 0;
			send_pkt(in, len, R_TOKEN);
			break;
		}
	}
}

/*
 * DATA with the right tokens at PSNs the target must refuse: far beyond
 * its window ("psn-window", answered by a NACK the peer drops as "ack")
 * and long delivered ("duplicate", answered by a SACK).
 */
static void mode_psn(struct inj *in)
{
	struct mrc_data *d = (struct mrc_data *)(in->pkt + HDR);
	long i;

	for (i = 0; i < in->count; i++) {
		size_t len = build(in, MRC_PKT_DATA, in->dst_token,
				   in->src_token, 1 + rnd(in, 1400));

		if (i % 2) {
			d->psn = htonl(psn_add(in, in->psn,
					       PSN_FAR + rnd(in, 1 << 16)));
			send_pkt(in, len, R_PSN_WINDOW);
		} else {
			d->psn = htonl(psn_add(in, in->psn, -(int64_t)PSN_OLD -
					       rnd(in, PSN_OLD)));
			send_pkt(in, len, R_DUPLICATE);
		}
	}
}

/*
 * DATA with the right tokens at random PSNs, for a receiver whose window
 * is unknown: each is either behind it ("duplicate") or far beyond it
 * ("psn-window"), but for a 2^-19 chance per packet of landing inside.
 */
static void mode_psn_random(struct inj *in)
{
	long i;

	for (i = 0; i < in->count; i++) {
		size_t len = build(in, MRC_PKT_DATA, in->dst_token,
				   in->src_token, 1 + rnd(in, 1400));

		((struct mrc_data *)(in->pkt + HDR))->psn =
			htonl((uint32_t)rnd64(in) & psn_mask(in));
		send_pkt(in, len, R_DUP_OR_WINDOW);
	}
}

/*
 * SACKs with the right tokens that acknowledge PSNs the target never
 * sent ("ack"): a cum_psn beyond snd_nxt; a trig_psn beyond it; a bitmap
 * window far beyond it under an old cum_psn. All carry rwnd 0 and plane
 * 0 alone up, so one taken would show.
 */
static void mode_sack(struct inj *in)
{
	uint32_t far = psn_add(in, in->psn, PSN_FAR), old;
	uint32_t mask = psn_mask(in);
	uint8_t *b = in->pkt + HDR;
	long i;

	for (i = 0; i < in->count; i++) {
		uint32_t cum, trig, base;
		uint64_t map;

		old = psn_add(in, in->psn, -4096 - (int64_t)rnd(in, 4096));
		switch (i % 3) {
		case 0:
			cum = psn_add(in, far, rnd(in, 1 << 16));
			trig = psn_add(in, cum, -1);
			map = 0;
			break;
		case 1:
			cum = old;
			trig = psn_add(in, far, rnd(in, 1 << 16));
			map = 1;
			break;
		default:
			cum = old;
			trig = psn_add(in, old, -1);
			map = rnd64(in) | 1;
			break;
		}
		base = (i % 3 == 2 ? psn_add(in, far, rnd(in, 1 << 16)) :
			trig) & ~63u & mask;
		put_sack(b, cum, base, map, trig);
		put_hdr(in, in->pkt, MRC_WIRE_VERSION, MRC_PKT_SACK,
			sizeof(struct mrc_sack), in->dst_token, in->src_token);
		send_pkt(in, HDR + sizeof(struct mrc_sack), R_ACK);
	}
}

/* NACKs with the right tokens for a PSN never sent, or a cum_psn beyond. */
static void mode_nack(struct inj *in)
{
	uint32_t far = psn_add(in, in->psn, PSN_FAR);
	uint8_t *b = in->pkt + HDR;
	long i;

	for (i = 0; i < in->count; i++) {
		if (i % 2)
			put_nack(in, b, psn_add(in, far, rnd(in, 1 << 16)),
				 in->psn);
		else
			put_nack(in, b, psn_add(in, in->psn, -1),
				 psn_add(in, far, rnd(in, 1 << 16)));
		put_hdr(in, in->pkt, MRC_WIRE_VERSION, MRC_PKT_NACK,
			sizeof(struct mrc_nack), in->dst_token, in->src_token);
		send_pkt(in, HDR + sizeof(struct mrc_nack), R_ACK);
	}
}

/*
 * PROBE_REPLYs with the right tokens that answer no probe ("state"):
 * random probe ids, and with -E the right EV and index for EVs that are
 * not being probed, with a timestamp that would claim a 59 s RTT.
 */
static void mode_probe(struct inj *in)
{
	struct mrc_hdr *h = (struct mrc_hdr *)in->pkt;
	struct timespec ts;
	uint32_t now_us, idx;
	size_t len;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now_us = (uint32_t)(ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
	for (i = 0; i < in->count; i++) {
		len = build(in, MRC_PKT_PROBE_REPLY, in->dst_token,
			    in->src_token, 0);
		if (in->nevs && (i % 2)) {
			idx = rnd(in, (uint32_t)in->nevs);
			put_probe(in->pkt + HDR,
				  (uint32_t)rnd(in, 1 << 24) << 8 | idx,
				  now_us - 59000000u);
			h->ev = htonl(in->evs[idx]);
		}
		send_pkt(in, len, R_STATE);
	}
}

/*
 * Replay what the capture saw going to the target (run_step() made sure
 * there is something; COUNT packets, the
 * capture over and over), in-window duplicates with the real payloads,
 * once in->wait_ms more have passed: DATA is "duplicate" by then;
 * anything else (SACKs) a receiver may take.
 */
static void mode_replay(struct inj *in)
{
	struct timespec ts = {
		.tv_sec = in->wait_ms / 1000,
		.tv_nsec = (in->wait_ms % 1000) * 1000000,
	};
	const struct inj_capture *cp;
	long i;

	nanosleep(&ts, NULL);
	for (i = 0; i < in->count; i++) {
		cp = &in->cap[i % in->ncap];
		memcpy(in->pkt, cp->data, cp->len);
		send_sport(in, cp->len, cp->sport, false);
		if ((cp->data[0] & 0xf) == MRC_PKT_DATA)
			in->expect[R_DUPLICATE]++;
		else
			in->accepted++;
	}
}

/*
 * Packets of every kind the connection takes, tokens right, PSNs long
 * delivered (an RST among them), where they must not come from: a plane
 * the connection does not share (-d), or a source address that is not
 * the peer's (-a): all "plane".
 */
static void mode_plane(struct inj *in)
{
	long i;

	for (i = 0; i < in->count; i++) {
		size_t len = build(in, rnd_conn_type(in), in->dst_token,
				   in->src_token, 1 + rnd(in, 1400));

		send_pkt(in, len, R_PLANE);
	}
}

static void mode_tokens(struct inj *in)
{
	mode_token(in, false);
}

static void mode_rst(struct inj *in)
{
	mode_token(in, true);
}

/*
 * Valid, right-token duplicates with a wrong UDP checksum: "csum" as
 * mrc_wire.rst says, or Udp InCsumErrors of /proc/net/snmp: UDP checks
 * the sum before MRC's encapsulation hook sees the datagram.
 */
static void mode_csum(struct inj *in)
{
	long i;

	for (i = 0; i < in->count; i++)
		send_pkt(in, build(in, MRC_PKT_DATA, in->dst_token,
				   in->src_token, 1 + rnd(in, 1400)), R_CSUM_ANY);
}

static const struct {
	const char	*name;
	void		(*run)(struct inj *in);
	bool		needs_tokens;
	bool		needs_psn;
} modes[] = {
	{ "random",	mode_random,	false,	false },
	{ "truncated",	mode_truncated,	false,	false },
	{ "oversized",	mode_oversized,	false,	false },
	{ "badhdr",	mode_badhdr,	false,	false },
	{ "token",	mode_tokens,	true,	false },
	{ "rst",	mode_rst,	true,	false },
	{ "psn",	mode_psn,	true,	true },
	{ "psn-random",	mode_psn_random, true,	false },
	{ "sack",	mode_sack,	true,	true },
	{ "nack",	mode_nack,	true,	true },
	{ "probe",	mode_probe,	true,	false },
	{ "replay",	mode_replay,	true,	false },
	{ "plane",	mode_plane,	true,	false },
	{ "csum",	mode_csum,	true,	false },
};

/* ---- the target's counters (-N) */

#define MAX_STATS	128

struct inj_stats {
	int		n;
	char		name[MAX_STATS][32];
	long long	val[MAX_STATS];
};

/* The target connection as generic netlink shows it. */
struct inj_conn {
	uint32_t	id;
	bool		found;
	int		state;		/* enum mrc_conn_state */
	struct inj_stats st;		/* its counters, then EvCount, EvMaxRttUs */
	uint32_t	evs[MAX_EVS];
	int		nevs;
	uint32_t	max_rtt;
};

static void add_stat(struct inj_stats *st, const char *prefix,
		     const char *name, long long val)
{
	if (st->n == MAX_STATS)
		return;
	snprintf(st->name[st->n], sizeof(st->name[0]), "%s%s", prefix, name);
	st->val[st->n++] = val;
}

static long long stat_get(const struct inj_stats *st, const char *name)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->name[i], name))
			return st->val[i];
	return 0;
}

/*
 * In network namespace @ns (a name under /run/netns or a path): open
 * /proc/net/mrc_stat and /proc/net/snmp, and a generic netlink socket on
 * family "mrc". All stay bound to that netns when we come back to ours.
 */
static void open_target(struct inj *in, const char *ns)
{
	char path[256];
	int self, target;

	if (strchr(ns, '/'))
		snprintf(path, sizeof(path), "%s", ns);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", ns);
	self = open("/proc/self/ns/net", O_RDONLY);
	target = open(path, O_RDONLY);
	if (self < 0 || target < 0 || setns(target, CLONE_NEWNET) < 0)
		die("cannot enter netns %s: %s", path, strerror(errno));
	in->stat_fd = open("/proc/self/net/mrc_stat", O_RDONLY);
	in->snmp_fd = open("/proc/self/net/snmp", O_RDONLY);
	if (in->stat_fd < 0 || in->snmp_fd < 0)
		die("netns %s: /proc/net/mrc_stat or snmp: %s", path,
		    strerror(errno));
	in->nl = nl_socket_alloc();
	if (!in->nl || genl_connect(in->nl))
		die("netns %s: generic netlink: %s", path, strerror(errno));
	in->family = genl_ctrl_resolve(in->nl, MRC_GENL_NAME);
	if (in->family < 0)
		die("netns %s: no generic netlink family %s", path,
		    MRC_GENL_NAME);
	if (setns(self, CLONE_NEWNET) < 0)
		die("cannot come back to our netns: %s", strerror(errno));
	close(self);
	close(target);
	/* family ids are global: the target's serves ours too */
	in->own_nl = nl_socket_alloc();
	if (!in->own_nl || genl_connect(in->own_nl))
		die("generic netlink here: %s", strerror(errno));
}

/* The "Udp:" lines of /proc/net/snmp, as Udp<Name> counters. */
static void read_snmp_udp(int fd, struct inj_stats *st)
{
	char buf[8192], *names = NULL, *vals = NULL, *line, *save = NULL;
	char *n, *v, *sn = NULL, *sv = NULL;
	ssize_t len;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len < 0)
		die("reading snmp: %s", strerror(errno));
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "Udp: ", 5))
			continue;
		if (!names)
			names = line + 5;
		else if (!vals)
			vals = line + 5;
	}
	if (!names || !vals)
		return;
	for (n = strtok_r(names, " ", &sn), v = strtok_r(vals, " ", &sv);
	     n && v; n = strtok_r(NULL, " ", &sn), v = strtok_r(NULL, " ", &sv))
		add_stat(st, "Udp", n, atoll(v));
}

static void read_stats(const struct inj *in, struct inj_stats *st)
{
	char buf[4096], name[32], *line, *save = NULL;
	long long val;
	ssize_t n;

	n = pread(in->stat_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		die("reading mrc_stat: %s", strerror(errno));
	buf[n] = '\0';
	st->n = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%31s %lld", name, &val) == 2)
			add_stat(st, "", name, val);
	read_snmp_udp(in->snmp_fd, st);
}

/* MRC_ATTR_STATS-style nest @nest: (name, value) entries into @st. */
static void parse_nl_stats(struct nlattr *nest, struct inj_stats *st)
{
	struct nlattr *e, *tb[MRC_STATS_ATTR_MAX + 1];
	int rem;

	nla_for_each_nested(e, nest, rem) {
		if (nla_type(e) != MRC_STATS_ATTR_ENTRY ||
		    nla_parse_nested(tb, MRC_STATS_ATTR_MAX, e, NULL) ||
		    !tb[MRC_STATS_ATTR_NAME] || !tb[MRC_STATS_ATTR_VALUE])
			continue;
		add_stat(st, "", nla_get_string(tb[MRC_STATS_ATTR_NAME]),
			 (long long)nla_get_u64(tb[MRC_STATS_ATTR_VALUE]));
	}
}

static int conn_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[MRC_ATTR_MAX + 1], *ct[MRC_CONN_ATTR_MAX + 1];
	struct inj_conn *c = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, MRC_ATTR_MAX, NULL) ||
	    !tb[MRC_ATTR_CONN] ||
	    nla_parse_nested(ct, MRC_CONN_ATTR_MAX, tb[MRC_ATTR_CONN], NULL) ||
	    !ct[MRC_CONN_ATTR_ID] || nla_get_u32(ct[MRC_CONN_ATTR_ID]) != c->id)
		return NL_OK;
	c->found = true;
	if (ct[MRC_CONN_ATTR_STATE])
		c->state = nla_get_u8(ct[MRC_CONN_ATTR_STATE]);
	if (ct[MRC_CONN_ATTR_STATS])
		parse_nl_stats(ct[MRC_CONN_ATTR_STATS], &c->st);
	return NL_OK;
}

static int path_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[MRC_ATTR_MAX + 1], *pt[MRC_PATH_ATTR_MAX + 1];
	struct inj_conn *c = arg;
	uint32_t rtt;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, MRC_ATTR_MAX, NULL) ||
	    !tb[MRC_ATTR_PATH] ||
	    nla_parse_nested(pt, MRC_PATH_ATTR_MAX, tb[MRC_ATTR_PATH], NULL) ||
	    !pt[MRC_PATH_ATTR_EV] || c->nevs == MAX_EVS)
		return NL_OK;
	c->evs[c->nevs++] = nla_get_u32(pt[MRC_PATH_ATTR_EV]);
	rtt = pt[MRC_PATH_ATTR_RTT_US] ? nla_get_u32(pt[MRC_PATH_ATTR_RTT_US]) : 0;
	if (rtt > c->max_rtt)
		c->max_rtt = rtt;
	return NL_OK;
}

/* One dump of @cmd (PATH_GET: of connection @id) on @nl through @cb. */
static void conn_dump(struct inj *in, struct nl_sock *nl, int cmd, uint32_t id,
		      nl_recvmsg_msg_cb_t cb, void *arg)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *nest;
	int err;

	if (!msg)
		die("out of memory");
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, in->family, 0, NLM_F_DUMP,
		    (uint8_t)cmd, MRC_GENL_VERSION);
	if (cmd == MRC_CMD_PATH_GET) {
		nest = nla_nest_start(msg, MRC_ATTR_PATH);
		nla_put_u32(msg, MRC_PATH_ATTR_CONN_ID, id);
		nla_nest_end(msg, nest);
	}
	nl_socket_modify_cb(nl, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	err = nl_send_auto(nl, msg);
	nlmsg_free(msg);
	if (err >= 0)
		err = nl_recvmsgs_default(nl);
	/* a connection gone between the two dumps has no paths: no error */
	if (err < 0 && !(cmd == MRC_CMD_PATH_GET && err == -NLE_OBJ_NOTFOUND))
		die("netlink dump %d: %s", cmd, nl_geterror(err));
}

/* The target connection (in->dst_token): state, counters, EVs. */
static void read_conn(struct inj *in, struct inj_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->id = in->dst_token;
	c->state = -1;
	conn_dump(in, in->nl, MRC_CMD_CONN_GET, 0, conn_cb, c);
	if (!c->found)
		return;
	conn_dump(in, in->nl, MRC_CMD_PATH_GET, c->id, path_cb, c);
	add_stat(&c->st, "", "EvCount", c->nevs);
	add_stat(&c->st, "", "EvMaxRttUs", c->max_rtt);
}

/*
 * The source connection (in->src_token, here): what it really sent the
 * target meanwhile, against which the target's counters of packets taken
 * are judged (a live transfer's own NACKs are not injected ones).
 */
static void read_src_conn(struct inj *in, struct inj_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->id = in->src_token;
	c->state = -1;
	conn_dump(in, in->own_nl, MRC_CMD_CONN_GET, 0, conn_cb, c);
}

/* How much counter @key ("A+B": their sum) grew from @b to @a. */
static long long grown(const char *key, const struct inj_stats *b,
		       const struct inj_stats *a)
{
	char buf[80], *name, *save = NULL;
	long long sum = 0;

	snprintf(buf, sizeof(buf), "%s", key);
	for (name = strtok_r(buf, "+", &save); name;
	     name = strtok_r(NULL, "+", &save))
		sum += stat_get(a, name) - stat_get(b, name);
	return sum;
}

/* Has every expected counter grown enough? */
static bool counted(const struct inj *in, const struct inj_stats *b,
		    const struct inj_stats *a)
{
	int r;

	for (r = 0; r < R_MAX; r++)
		if (in->expect[r] &&
		    grown(inj_reason_names[r], b, a) < in->expect[r])
			return false;
	return true;
}

/*
 * After a mode: the target's counters once all it is due has been
 * counted (SETTLE_MS more, so that extra counts show too) or after
 * in->timeout_ms.
 */
static void wait_counted(const struct inj *in, const struct inj_stats *b,
			 struct inj_stats *a)
{
	struct timespec tick = { .tv_nsec = SETTLE_MS * 1000000L };
	long deadline = now_ms() + in->timeout_ms;

	do {
		nanosleep(&tick, NULL);
		read_stats(in, a);
	} while (!counted(in, b, a) && now_ms() < deadline);
	nanosleep(&tick, NULL);
	read_stats(in, a);
}

/* ---- setup and report */

static int usage(void)
{
	size_t i;

	fprintf(stderr,
		"Usage: mrc_inject [ GLOBAL ] STEP\n"
		"       mrc_inject [ GLOBAL ] < STEPS   (one STEP a line)\n"
		"GLOBAL := [ -N NETNS ] [ -D DST_TOKEN ] [ -S SRC_TOKEN ] [ -p PORT ]\n"
		"          [ -n COUNT ] [ -s SEED ] [ -T MS ] [ -K PID ]\n"
		"STEP := -d ADDR -m MODE[,MODE...] [ -n COUNT ] [ -P PSN ] [ -i IFACE ]\n"
		"        [ -w MS ] [ -a SADDR ] [ -E EV[,EV...] ]\n"
		"  -N NETNS  the target's netns: its counters (mrc_stat, and snmp's\n"
		"            Udp as Udp<Name>) and its connection -D (state,\n"
		"            counters, EVs) before and after each mode, once what\n"
		"            is due was counted (up to -T MS, default 5000)\n"
		"  -D, -S    the target connection's token and its peer's\n"
		"  -p PORT   the target's MRC UDP port (default %d)\n"
		"  -K PID    at the end, end the transfer of process PID\n"
		"            (SIGUSR1) and wait until it exits, before the\n"
		"            sniffing sockets close\n"
		"  -n COUNT  packets per mode (default 100)\n"
		"  -d ADDR   the target's plane address (IPv4)\n"
		"  -P PSN    PSN hint: the target's next expected (psn) or oldest\n"
		"            unacknowledged (sack, nack) PSN; else learnt with -i\n"
		"  -i IFACE  sniff the connection's packets to the target on IFACE\n"
		"            (up to 5 s): PSN hint, replay capture\n"
		"  -w MS     replay: wait MS after the capture (default 1000)\n"
		"  -a SADDR  spoofed source address\n"
		"  -E EVS    the target's EVs in index order (probe; with -N they\n"
		"            are read from the connection)\n"
		"MODE := ", MRC_DEFAULT_UDP_PORT);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, "%s%s", i ? " | " : "", modes[i].name);
	fprintf(stderr, "\n");
	return 1;
}

static uint32_t parse_u32(const char *s, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > 0xffffffffull) {
		fprintf(stderr, "mrc_inject: %s \"%s\" is not a 32-bit number\n",
			what, s);
		exit(1);
	}
	return (uint32_t)v;
}

static void parse_evs(struct inj *in, char *list)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (in->nevs == MAX_EVS) {
			fprintf(stderr, "mrc_inject: more than %d EVs\n", MAX_EVS);
			exit(1);
		}
		in->evs[in->nevs++] = parse_u32(tok, "EV");
	}
}

/* The modes of -m, by index into modes[]; exits on an unknown one. */
static int parse_modes(char *list, int *idx)
{
	size_t i, m = sizeof(modes) / sizeof(modes[0]);
	char *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < m && strcmp(modes[i].name, tok); i++)
			;
		if (i == m || n == MAX_MODES) {
			fprintf(stderr, "mrc_inject: mode \"%s\" is unknown\n",
				tok);
			exit(usage());
		}
		idx[n++] = (int)i;
	}
	return n;
}

/* Our address towards the target and the path MTU; the sockets. */
static void open_sockets(struct inj *in)
{
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_addr = in->daddr,
		.sin_port = htons(in->port),
	}, me;
	int pmtu = IP_PMTUDISC_DONT;
	socklen_t len = sizeof(me);

	in->udp_fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (in->udp_fd < 0 ||
	    setsockopt(in->udp_fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu,
		       sizeof(pmtu)) < 0 ||
	    connect(in->udp_fd, (struct sockaddr *)&to, sizeof(to)) < 0 ||
	    getsockname(in->udp_fd, (struct sockaddr *)&me, &len) < 0)
		die("no route to %s: %s", inet_ntoa(in->daddr), strerror(errno));
	in->laddr = me.sin_addr;
	len = sizeof(in->mtu);
	if (getsockopt(in->udp_fd, IPPROTO_IP, IP_MTU, &in->mtu, &len) < 0)
		in->mtu = 1500;
	in->raw_fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (in->raw_fd < 0)
		die("raw socket: %s", strerror(errno));
}

static void report_stats(const char *key, const struct inj_stats *st)
{
	int i;

	printf(",\"%s\":{", key);
	for (i = 0; i < st->n; i++)
		printf("%s\"%s\":%lld", i ? "," : "", st->name[i], st->val[i]);
	printf("}");
}

static void report_conn(const char *key, const struct inj_conn *c)
{
	printf(",\"%s\":{\"found\":%s,\"state\":%d", key,
	       c->found ? "true" : "false", c->state);
	report_stats("stats", &c->st);
	printf("}");
}

/*
 * Packets every CPU's receive backlog dropped so far (the second column of
 * /proc/net/softnet_stat, one line a CPU, in hex): injected packets lost
 * there never reach MRC's counters. -1 if unreadable.
 */
static long softnet_drops(void)
{
	unsigned int processed, dropped;
	char line[512];
	long sum = 0;
	FILE *f;

	f = fopen("/proc/net/softnet_stat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x", &processed, &dropped) == 2)
			sum += dropped;
	fclose(f);
	return sum;
}

static void report(const struct inj *in, const struct inj_stats *before,
		   const struct inj_stats *after, const struct inj_conn *cb,
		   const struct inj_conn *ca, const struct inj_conn *sb,
		   const struct inj_conn *sa, long ms)
{
	bool first = true;
	int r;

	printf("{\"step\":%d,\"mode\":\"%s\",\"seed\":%llu,\"sent\":%ld,"
	       "\"bytes\":%ld,\"ms\":%ld,", in->step, in->mode,
	       (unsigned long long)in->rng_seed, in->sent, in->bytes, ms);
	if (in->has_psn)
		printf("\"psn_hint\":%u,", in->psn);
	printf("\"captured\":%d,\"captured_data\":%d,\"accepted\":%ld,"
	       "\"softnet_drops\":%ld,\"expect\":{",
	       in->ncap, in->cap_data, in->accepted, in->softnet_drops);
	for (r = 0; r < R_MAX; r++) {
		if (!in->expect[r])
			continue;
		printf("%s\"%s\":%ld", first ? "" : ",", inj_reason_names[r],
		       in->expect[r]);
		first = false;
	}
	printf("}");
	if (in->stat_fd >= 0) {
		report_stats("before", before);
		report_stats("after", after);
		report_conn("conn_before", cb);
		report_conn("conn_after", ca);
		report_conn("src_before", sb);
		report_conn("src_after", sa);
	}
	printf("}\n");
	fflush(stdout);
}

static void report_error(const struct inj *in, const char *why)
{
	printf("{\"step\":%d,\"mode\":\"%s\",\"error\":\"%s\"}\n",
	       in->step, in->mode, why);
	fflush(stdout);
}

/* Options of a step (@global: of the command line, before any step). */
static int parse_opts(struct inj *in, int argc, char **argv, bool global,
		      char **list)
{
	int opt;

	optind = 0;
	while ((opt = getopt(argc, argv, "d:p:D:S:n:s:P:i:w:a:E:m:N:T:K:h")) != -1) {
		if (!global && strchr("pDSsNTK", opt)) {
			fprintf(stderr, "mrc_inject: -%c is global\n", opt);
			return usage();
		}
		switch (opt) {
		case 'd':
			if (inet_pton(AF_INET, optarg, &in->daddr) != 1)
				return usage();
			in->has_daddr = true;
			break;
		case 'a':
			if (inet_pton(AF_INET, optarg, &in->saddr) != 1)
				return usage();
			break;
		case 'p':
			in->port = (uint16_t)parse_u32(optarg, "port");
			break;
		case 'D':
			in->dst_token = parse_u32(optarg, "token");
			in->has_tokens |= 1;
			break;
		case 'S':
			in->src_token = parse_u32(optarg, "token");
			in->has_tokens |= 2;
			break;
		case 'n':
			in->count = parse_u32(optarg, "count");
			break;
		case 's':
			in->seed = parse_u32(optarg, "seed");
			break;
		case 'P':
			in->psn = parse_u32(optarg, "PSN");
			in->has_psn = true;
			break;
		case 'i':
			in->iface = strdup(optarg);
			break;
		case 'w':
			in->wait_ms = parse_u32(optarg, "wait");
			break;
		case 'E':
			parse_evs(in, optarg);
			break;
		case 'm':
			*list = strdup(optarg);
			break;
		case 'N':
			in->netns = optarg;
			break;
		case 'T':
			in->timeout_ms = parse_u32(optarg, "timeout");
			break;
		case 'K':
			in->end_pid = (pid_t)parse_u32(optarg, "pid");
			break;
		default:
			return usage();
		}
	}
	if (optind != argc)
		return usage();
	return 0;
}

/*
 * One step: its options in @argv (@global: the command line's, with the
 * global ones); every mode of its -m in turn.
 */
static int run_step(struct inj *in, int argc, char **argv, long count,
		    bool global)
{
	static struct inj_stats before, after;
	static struct inj_conn cb, ca, sb, sa;
	int nmodes, idx[MAX_MODES], k, c;
	char *list = NULL;
	long t, sd;

	/* what a step sets is its own */
	in->has_daddr = false;
	in->saddr.s_addr = 0;
	free(in->iface);
	in->iface = NULL;
	in->has_psn = false;
	in->nevs = 0;
	in->wait_ms = 1000;
	in->count = count;
	in->flags = 0;
	for (c = 0; c < in->ncap; c++)
		free(in->cap[c].data);
	in->ncap = in->cap_data = 0;
	if (parse_opts(in, argc, argv, global, &list))
		return 1;
	if (!in->has_daddr || !list)
		return usage();
	nmodes = parse_modes(list, idx);
	free(list);
	for (k = 0; k < nmodes; k++) {
		const char *name = modes[idx[k]].name;

		if (modes[idx[k]].needs_tokens && in->has_tokens != 3) {
			fprintf(stderr, "mrc_inject: mode %s needs -D and -S\n",
				name);
			return 1;
		}
		if (!strcmp(name, "replay") && !in->iface) {
			fprintf(stderr, "mrc_inject: mode replay needs -i\n");
			return 1;
		}
	}
	open_sockets(in);
	if (in->iface)
		sniff(in);
	for (k = 0; k < nmodes; k++) {
		in->mode = modes[idx[k]].name;
		/* a step that cannot run says so, the next ones still run */
		if (modes[idx[k]].needs_psn && !in->has_psn) {
			report_error(in, "no PSN: -P, or -i IFACE seeing the connection");
			continue;
		}
		if (!strcmp(in->mode, "replay") && !in->ncap) {
			report_error(in, "nothing of the connection seen on the interface");
			continue;
		}
		in->rng_seed = in->seed + (uint64_t)(in->step * MAX_MODES + k);
		in->rng = in->rng_seed;
		in->sent = in->bytes = in->accepted = 0;
		memset(in->expect, 0, sizeof(in->expect));
		t = now_ms();
		sd = softnet_drops();
		if (in->stat_fd >= 0) {
			read_conn(in, &cb);
			read_src_conn(in, &sb);
			if (!in->nevs && !strcmp(in->mode, "probe")) {
				memcpy(in->evs, cb.evs, sizeof(cb.evs));
				in->nevs = cb.nevs;
			}
			read_stats(in, &before);
		}
		modes[idx[k]].run(in);
		if (in->stat_fd >= 0) {
			wait_counted(in, &before, &after);
			read_conn(in, &ca);
			read_src_conn(in, &sa);
		}
		in->softnet_drops = sd < 0 ? 0 : softnet_drops() - sd;
		report(in, &before, &after, &cb, &ca, &sb, &sa, now_ms() - t);
	}
	close(in->udp_fd);
	close(in->raw_fd);
	return 0;
}

/* Is process @pid still running (not gone, not a zombie)? */
static bool pid_running(pid_t pid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/*
 * -K: the transfer ends before the sniffing sockets close at exit, so
 * that their grace period (sniff()) does not wait behind its load.
 */
static void end_transfer(const struct inj *in)
{
	long deadline = now_ms() + 120000L * mrc_lib_time_scale();

	if (!in->end_pid || !in->ntaps)
		return;
	kill(in->end_pid, SIGUSR1);
	while (pid_running(in->end_pid) && now_ms() < deadline)
		usleep(100000);
}

/* Steps from stdin, one a line of options ('#' starts a comment). */
static int run_steps(struct inj *in, long count)
{
	char line[1024], *argv[64], *tok, *save;
	int argc, err;

	while (fgets(line, sizeof(line), stdin)) {
		argv[0] = "mrc_inject";
		argc = 1;
		for (tok = strtok_r(line, " \t\n", &save);
		     tok && *tok != '#' && argc < 63;
		     tok = strtok_r(NULL, " \t\n", &save))
			argv[argc++] = tok;
		argv[argc] = NULL;
		if (argc == 1)
			continue;
		err = run_step(in, argc, argv, count, false);
		if (err)
			return err;
		in->step++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct inj in = {
		.port = MRC_DEFAULT_UDP_PORT,
		.count = 100,
		.seed = 1,
		.timeout_ms = 5000,
		.stat_fd = -1,
		.snmp_fd = -1,
	};
	char *list = NULL;
	int err;

	/* global options, and a step's when it is on the command line */
	err = parse_opts(&in, argc, argv, true, &list);
	if (err)
		return err;
	if (in.netns) {
		if (in.has_tokens != 3) {
			fprintf(stderr, "mrc_inject: -N needs -D and -S\n");
			return 1;
		}
		open_target(&in, in.netns);
	}
	if (!list) {
		err = run_steps(&in, in.count);
	} else {
		free(list);
		err = run_step(&in, argc, argv, in.count, true);
	}
	fflush(stdout);
	end_transfer(&in);
	return err;
}
