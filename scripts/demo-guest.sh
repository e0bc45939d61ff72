#!/bin/bash
# `make demo`, guest half: load mrc.ko, open AF_MRC sockets, show what the
# kernel and mrcctl report. Grows into the full multi-plane tour later.
set -eu
cd "$MRC_SRC"
say() { printf '\n\033[1m>>> %s\033[0m\n' "$*"; }
mrcctl=build/userspace/mrcctl/mrcctl

say "Booted Debian's $(uname -r) under QEMU; loading kernel/mrc.ko"
insmod kernel/mrc.ko
dmesg | grep 'mrc:' | tail -n 1

say "mrcctl reads the live AF_MRC number from sysfs"
$mrcctl info
$mrcctl -j info

say "Opening one SOCK_STREAM and one SOCK_SEQPACKET AF_MRC socket"
family=$($mrcctl -j info | sed 's/.*"family":\([0-9]*\).*/\1/')
python_sock="import socket,sys
f=int(sys.argv[1])
for t,n in ((socket.SOCK_STREAM,'SOCK_STREAM'),(socket.SOCK_SEQPACKET,'SOCK_SEQPACKET')):
    s=socket.socket(f,t,0); print('  socket(%d, %s) = fd %d' % (f,n,s.fileno()))
try:
    socket.socket(f,socket.SOCK_DGRAM,0)
except OSError as e:
    print('  socket(%d, SOCK_DGRAM) refused: %s' % (f,e.strerror))
print(open('/proc/net/mrc_stat').read())"
/usr/bin/python3 -c "$python_sock" "$family"

say "Module BTF for BPF: /sys/kernel/btf/mrc"
bpftool btf dump file /sys/kernel/btf/mrc | grep -E "FUNC 'mrc_(create|release)'"

say "Unloading mrc.ko"
rmmod mrc
echo "  done; kernel log is clean (vm-test/run checks it)"
