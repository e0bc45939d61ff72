// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_synrace: the same SYN twice at once, for mrc_limits.sh. A client
 * resends its SYN on two EVs back to back, and the copies may be taken by
 * two CPUs of the listener's host together; each client must still get
 * exactly one child.
 *
 *   mrc_synrace DST MRC_PORT SVC_PORT N ADVERTISE
 *
 * For each of N fresh tokens, two threads pinned to CPUs 0 and 1 meet at
 * a barrier and send the SYN from two UDP source ports (two EVs) to
 * DST:MRC_PORT (MRC's UDP port), for service port SVC_PORT. The SYN
 * advertises plane 0 at ADVERTISE, an address nobody answers from, so the
 * children's SYN_ACKs go nowhere and they stay. Prints "sent N". IPv4.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mrc_wire.h>

#define EV_BASE		41000

struct racer {
	int cpu;
	int fd;
	const uint8_t *pkt;
	size_t len;
	struct sockaddr_in dst;
};

static pthread_barrier_t start, done;
static int rounds;

/* SYN from @token for service @svc, advertising plane 0 at @adv. */
static size_t build_syn(uint8_t *b, uint32_t token, uint16_t svc,
			uint16_t mrc_port, uint32_t adv, uint16_t ev)
{
	struct mrc_hdr h = {
		.ver_type = MRC_WIRE_VERSION << 4 | MRC_PKT_SYN,
		.body_len = htons(sizeof(struct mrc_syn) +
				  sizeof(struct mrc_wire_plane)),
		.src_token = htonl(token),
		.ev = htonl(ev),
	};
	struct mrc_syn s = {
		.isn = htonl(token * 2654435761u),
		.rwnd = htonl(1 << 20),
		.src_port = htons(svc + 1),
		.dst_port = htons(svc),
		.mss = htons(1400),
		.sock_type = MRC_SYN_STREAM,
		.nplanes = 1,
		.ev_count = htons(16),
	};
	struct mrc_wire_plane p = {
		.plane = 0,
		.flags = MRC_PLANE_F_V4,
		.udp_port = htons(mrc_port),
		.addr4 = adv,
	};

	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), &s, sizeof(s));
	memcpy(b + sizeof(h) + sizeof(s), &p, sizeof(p));
	return sizeof(h) + sizeof(s) + sizeof(p);
}

static void *race(void *arg)
{
	struct racer *r = arg;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (i = 0; i < rounds; i++) {
		pthread_barrier_wait(&start);
		sendto(r->fd, r->pkt, r->len, 0, (struct sockaddr *)&r->dst,
		       sizeof(r->dst));
		pthread_barrier_wait(&done);
	}
	return NULL;
}

/* A UDP socket sending from source port @ev. */
static int sender(uint16_t ev)
{
	struct sockaddr_in src = { .sin_family = AF_INET,
				   .sin_port = htons(ev) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&src, sizeof(src))) {
		perror("mrc_synrace: socket");
		exit(2);
	}
	return fd;
}

int main(int argc, char **argv)
{
	static uint8_t pkt[2][256];
	struct racer r[2];
	pthread_t t[2];
	struct in_addr dst, adv;
	uint16_t mrc_port, svc;
	uint32_t token;
	int i, k;

	if (argc != 6 || inet_pton(AF_INET, argv[1], &dst) != 1 ||
	    inet_pton(AF_INET, argv[5], &adv) != 1) {
		fprintf(stderr, "usage: mrc_synrace DST MRC_PORT SVC_PORT N ADVERTISE\n");
		return 1;
	}
	mrc_port = (uint16_t)atoi(argv[2]);
	svc = (uint16_t)atoi(argv[3]);
	rounds = atoi(argv[4]);
	pthread_barrier_init(&start, NULL, 3);
	pthread_barrier_init(&done, NULL, 3);
	for (k = 0; k < 2; k++) {
		r[k] = (struct racer){ .cpu = k, .fd = sender(EV_BASE + k),
				       .pkt = pkt[k] };
		r[k].dst = (struct sockaddr_in){ .sin_family = AF_INET,
						 .sin_port = htons(mrc_port),
						 .sin_addr = dst };
		pthread_create(&t[k], NULL, race, &r[k]);
	}
	for (i = 0; i < rounds; i++) {
		if (getrandom(&token, sizeof(token), 0) != sizeof(token))
			return 2;
		token |= 1;
		for (k = 0; k < 2; k++)
			r[k].len = build_syn(pkt[k], token, svc, mrc_port,
					     adv.s_addr, EV_BASE + k);
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&done);
		usleep(2000);	/* the pair's children settle first */
	}
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("sent %d\n", rounds);
	return 0;
}
