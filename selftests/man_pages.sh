#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the manual pages in docs/man: each renders without a groff
# warning, and each still covers what the code offers: every object and
# command mrcctl's help prints (mrcctl.8), every SOL_MRC option and
# MRC_CONN_INFO field of the uapi header (mrc.7), every option mrcize
# answers for TCP (mrcize.1), every key mrcd's configuration parser reads
# (mrcd.conf.5 or mrcd.8). TAP output.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"

man_dir=$src/docs/man
mrcctl=${MRCCTL:-$src/build/userspace/mrcctl/mrcctl}
uapi=$src/include/uapi/linux/mrc.h
mrcd_config=$src/userspace/mrcd/config.cpp
mrcd_example=$src/userspace/mrcd/mrcd.conf.example

# $1: page, $2: heading; the source lines of that .SH or .SS section, up to
# the next heading of the same or a higher level.
section() {
	awk -v want="$2" '
		/^\.S[HS] / {
			level = substr($1, 3, 1); title = substr($0, 5)
			if (on && (level == "H" || on == "S")) exit
			if (title == want) { on = level; print; next }
		}
		on { print }' "$1"
}

# $1: page (- for standard input); the words of its tagged items (the line
# after each .TP) and of its section headings: where a page names the
# things it documents.
tags() {
	awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 } /^\.S[HS] / { print }' "$1" |
		sed -e 's/\\(dq//g' -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' \
			-e 's/^\.[A-Z]*//' -e 's/[][",(){}|]/ /g' |
		tr -s ' \t' '\n' | sed '/^$/d' | sort -u
}

# ---- every page renders without a warning
pages=("$man_dir"/*.[1-8])
if [ ! -e "${pages[0]}" ]; then
	mrc_lib_fail "man: pages exist" "no docs/man/*.[1-8]"
fi
for page in "${pages[@]}"; do
	[ -e "$page" ] || continue
	name=$(basename "$page")
	out=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	if [ -z "$out" ]; then
		mrc_lib_ok "man: $name renders without warnings"
	else
		mrc_lib_fail "man: $name renders without warnings" "$(echo "$out" | head -5)"
	fi
done

# ---- mrcctl.8: every object, command and option of mrcctl's help
page=$man_dir/mrcctl.8
if [ ! -x "$mrcctl" ]; then
	mrc_lib_ok "man: mrcctl.8 covers mrcctl # SKIP no $mrcctl (build it first)"
elif [ ! -e "$page" ]; then
	mrc_lib_fail "man: mrcctl.8 exists" "no $page"
else
	page_tags=$(section "$page" OPTIONS | tags -)
	help=$("$mrcctl" help)
	# OBJECT := { info | plane | ... } may span lines.
	objects=$(echo "$help" | tr '\n' ' ' |
		sed -n 's/.*OBJECT := {\([^}]*\)}.*/\1/p' | tr '|' ' ')
	options=$(echo "$help" | sed -n 's/.*OPTIONS := {\([^}]*\)}.*/\1/p' |
		grep -oE -- '-[a-zA-Z]')
	if [ -z "$objects" ] || [ -z "$options" ]; then
		mrc_lib_fail "man: mrcctl help lists objects and options" "cannot parse: $help"
	fi
	missing=()
	for opt in $options; do
		grep -qxF -- "$opt" <<<"$page_tags" || missing+=("option $opt")
	done
	for obj in $objects; do
		# Each object has a section of its own ...
		if ! grep -qx "\.SS $obj" "$page"; then
			missing+=("object $obj (no .SS $obj)")
			continue
		fi
		# ... and each command of its usage is spelt out there.
		# Rendered without hyphenation, in lines long enough that no
		# command is broken.
		text=$({ echo ".TH X 8"; section "$page" "$obj"; } | groff -man -Tascii -P-cbou -rHY=0 -rLL=2000n 2>/dev/null |
			sed 's/  */ /g')
		usage=$("$mrcctl" "$obj" help 2>&1)
		commands=$(echo "$usage" | sed -n "s/^\(Usage:\)\? *mrcctl $obj\( \[\)\? \([a-z][a-z-]*\).*/\3/p" |
			sort -u)
		for cmd in $commands; do
			grep -qF -e "mrcctl $obj $cmd" -e "mrcctl $obj [ $cmd ]" <<<"$text" ||
				missing+=("$obj $cmd")
		done
		n=$(echo "$usage" | grep -cE "^(Usage:)? *mrcctl $obj")
		[ "$n" -gt 0 ] || missing+=("$obj (cannot parse its usage)")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		mrc_lib_ok "man: mrcctl.8 names every object, command and option of mrcctl help"
	else
		mrc_lib_fail "man: mrcctl.8 names every object, command and option of mrcctl help" \
			"missing: ${missing[*]}"
	fi
fi

# ---- mrc.7: every SOL_MRC option and MRC_CONN_INFO field of mrc.h
page=$man_dir/mrc.7
if [ ! -e "$page" ]; then
	mrc_lib_fail "man: mrc.7 exists" "no $page"
else
	page_tags=$(section "$page" "SOCKET OPTIONS" | tags -)
	# The block of #defines under the "SOL_MRC options" comment.
	opts=$(awk '/SOL_MRC options/ { on = 1; next }
		on && /^#define/ { print $2; next }
		on { exit }' "$uapi")
	fields=$(awk '/^struct mrc_conn_info {/ { on = 1; next }
		on && /^};/ { exit }
		on { sub(/;.*/, ""); print $NF }' "$uapi")
	missing=()
	[ -n "$opts" ] || missing+=("(no SOL_MRC options found in mrc.h)")
	[ -n "$fields" ] || missing+=("(no struct mrc_conn_info in mrc.h)")
	for opt in $opts; do
		grep -qxF "$opt" <<<"$page_tags" || missing+=("$opt")
	done
	for field in $fields; do
		grep -qE "^ +__u(32|64) +$field;" "$page" || missing+=("mrc_conn_info.$field")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		mrc_lib_ok "man: mrc.7 describes every SOL_MRC option and MRC_CONN_INFO field of mrc.h"
	else
		mrc_lib_fail "man: mrc.7 describes every SOL_MRC option and MRC_CONN_INFO field of mrc.h" \
			"missing: ${missing[*]}"
	fi
fi

# ---- mrcize.1: every TCP option and each SOL_SOCKET exception of tcpopt.c
page=$man_dir/mrcize.1
tcpopt=$src/userspace/mrcize/tcpopt.c
page_tags=$(section "$page" "SOCKET OPTIONS" | tags -)
opts=$(grep -oE '(TCP_OPT|SO_OPT)\((TCP|SO)_[A-Z0-9_]+' "$tcpopt" | sed 's/.*(//')
missing=()
[ "$(wc -w <<<"$opts")" -ge 36 ] || missing+=("(cannot read the table of $tcpopt)")
for opt in $opts; do
	grep -qxF "$opt" <<<"$page_tags" || missing+=("$opt")
done
if [ ${#missing[@]} -eq 0 ]; then
	mrc_lib_ok "man: mrcize.1 says how each of tcpopt.c's $(wc -w <<<"$opts") options is answered"
else
	mrc_lib_fail "man: mrcize.1 says how each option of tcpopt.c is answered" \
		"missing: ${missing[*]}"
fi

# ---- mrcd's page: every key its configuration parser reads
mrcd_pages=()
for p in "$man_dir/mrcd.conf.5" "$man_dir/mrcd.8"; do
	[ -e "$p" ] && mrcd_pages+=("$p")
done
if [ ${#mrcd_pages[@]} -eq 0 ]; then
	mrc_lib_fail "man: mrcd's page exists" "no mrcd.conf.5 or mrcd.8"
else
	page_tags=$(for p in "${mrcd_pages[@]}"; do tags "$p"; done | sort -u)
	# config.cpp reads every table and key through TableReader calls
	# (String("key"), Unsigned<T>("key", ...), Table("daemon")) or helpers
	# taking the reader first (ReadU32(reader, "key", ...)); RejectUnknown()
	# refuses any other key, so these are all the keys mrcd accepts.
	keys=$(tr '\n' ' ' <"$mrcd_config" |
		grep -oE '(\(|reader, *)"[a-z][a-z0-9_]*"' | sed -E 's/.*"(.*)"/\1/' | sort -u)
	# Guard the extraction: the example claims to show every key.
	example_keys=$(sed -nE -e 's/^#? *([a-z][a-z0-9_]*) *=.*/\1/p' \
		-e 's/^\[+([a-z_]+)\]+$/\1/p' "$mrcd_example" | sort -u)
	unread=$(comm -13 <(echo "$keys") <(echo "$example_keys"))
	if [ -n "$unread" ]; then
		mrc_lib_fail "man: config keys found in config.cpp" \
			"keys of mrcd.conf.example not found in config.cpp: $(tr "\n" " " <<<"$unread")"
	fi
	missing=()
	for key in $keys; do
		grep -qxF "$key" <<<"$page_tags" || missing+=("$key")
	done
	if [ -n "$keys" ] && [ ${#missing[@]} -eq 0 ]; then
		mrc_lib_ok "man: mrcd's page describes every config key ($(echo "$keys" | wc -l) keys)"
	else
		mrc_lib_fail "man: mrcd's page describes every config key" \
			"missing: ${missing[*]:-(no keys found in config.cpp)}"
	fi
fi
