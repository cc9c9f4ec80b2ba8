#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Hostile and broken files: every reader rejects an input without
# records or with a NUL byte with file:line and exit 3; duplicate GUIDs are
# refused; writers never leave a truncated file behind a success (-o
# /dev/full, a file-size limit); option numbers are strict; empty table
# headers cost no memory.  Needs only the ibunion command (no opensm).
. "$(dirname "$0")/sim.sh"

[ -x "$IBUNION" ] || skip_all "no $IBUNION (build first)"
sim_setup
cd "$SIM_DIR" || bail_out "cannot cd to $SIM_DIR"
net=$FIXTURES/ft43.net

# t_fails CODE ERE DESC CMD...: CMD exits CODE and its stderr matches ERE.
t_fails()
{
	local want=$1 ere=$2 desc=$3 rc err
	shift 3

	err=$SIM_DIR/err-$((tap__count + 1))
	"$@" >/dev/null 2>"$err"
	rc=$?
	if [ "$rc" = "$want" ] && grep -Eq -- "$ere" "$err"; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc"
	diag "command: $*"
	diag "exit status $rc (want $want), stderr should match /$ere/:"
	diag_file "$err" 10
	return 1
}

# ---- inputs without records, garbage
: >empty
echo garbage >garbage
printf '\n\n' >blank
t_fails 3 '^-E- ibunion mcast check: empty:1: no multicast table' \
	"mcast check: empty MFT dump is an error" "$IBUNION" mcast check "$net" empty
t_fails 3 'garbage:1: not an MFT dump line' \
	"mcast check: garbage MFT dump is an error" "$IBUNION" mcast check "$net" garbage
t_fails 3 'garbage:1: not an MFT dump line' \
	"check --mcast: garbage MFT dump is an error" "$IBUNION" check --mcast garbage "$net"
t_fails 3 'blank:2: no multicast table' \
	"check --mcast: blank MFT dump is an error" "$IBUNION" check --mcast blank "$net"
t_fails 3 'empty:1: no switch table' \
	"check: empty LFT dump is an error" "$IBUNION" check "$net" empty
t_fails 3 'empty:1: no node records' \
	"lids: empty net file is an error" "$IBUNION" lids empty
t_fails 3 'garbage:1: no node records' \
	"route: garbage net file is an error" "$IBUNION" route garbage --lmc 0
t_fails 3 'empty:1: no member line' \
	"mcast tree: empty members file is an error" "$IBUNION" mcast tree "$net" empty

# ---- NUL bytes
printf 'Switch 2 "a"\n[1] "b"[1]\n\nSwitch 2 "b"\n[1] "a\0x"[1]\n' >nul.net
t_fails 3 'nul.net:5: NUL byte in line' "net file: NUL byte is a parse error" \
	"$IBUNION" lids nul.net
{ head -n 4 "$FIXTURES/ft43-lmc2.lfts"; printf '0x0001 000\0 : x\n'; } >nul.lfts
t_fails 3 'nul.lfts:5: NUL byte in line' "LFT dump: NUL byte is a parse error" \
	"$IBUNION" check "$net" nul.lfts

# ---- duplicate GUIDs
printf 'switchguid=0x10\nSwitch 2 "a"\n[1] "b"[1]\n\nswitchguid=0x10\nSwitch 2 "b"\n[1] "a"[1]\n' >dup.net
t_fails 3 'dup.net:6: node GUID 0x0000000000000010 .* \(line 2\)' \
	"duplicate switch GUID named at its second line" "$IBUNION" lids dup.net
sed '0,/^Hca/s//caguid=0x100000\nHca/' "$net" >dup2.net
sed -i '0,/^Hca/!{0,/^Hca/s//caguid=0x100000\nHca/}' dup2.net
t_fails 3 'dup2.net:[0-9]+: node GUID 0x0000000000100000' \
	"duplicate CA GUID (caguid= repeated) refused" "$IBUNION" lids dup2.net

# ---- output files: temp name + rename after a checked fclose
for cmd in "gen fattree 4 3" "lids $net --lmc 2" "route $net --lmc 2"; do
	# shellcheck disable=SC2086
	t_fails 3 '/dev/full: write failed: No space left on device' \
		"${cmd%% *} -o /dev/full fails" "$IBUNION" $cmd -o /dev/full
done
t_fails 3 '/dev/full: write failed: No space left on device' \
	"mcast tree -o /dev/full fails" "$IBUNION" mcast tree "$FIXTURES/ibft43-gen.net" \
	"$FIXTURES/ibft43-fig7.members" -q -o /dev/full
t_fails 3 '/dev/full: write failed: No space left on device' \
	"path -o /dev/full fails" "$IBUNION" path "$net" \
	--lids-from "$FIXTURES/ft43-lmc2.lfts" -o /dev/full
t_expect "lids -o /dev/null works" "$IBUNION" lids "$net" --lmc 2 -o /dev/null
echo old >keep.net
( trap '' XFSZ; ulimit -f 1; "$IBUNION" gen fattree 8 3 -o keep.net ) 2>xfsz.err
t_equal "a write failing half-way exits 3" "$?" 3
t_equal "... and leaves the old file as it was" "$(cat keep.net)" old
t_equal "... and no temporary file" "$(ls -A | grep -c '\.tmp\.')" 0
t_expect "gen -o writes the file" "$IBUNION" gen fattree 4 3 -o new.net
t_expect "... which reads back" "$IBUNION" lids new.net -o new.g2l

# ---- names and numbers
t_fails 2 "prefix 'a\"b' holds" "gen --prefix 'a\"b' is refused" \
	"$IBUNION" gen fattree 4 3 --prefix 'a"b'
t_fails 2 "--seed must be an unsigned integer .* not '-1'" "--seed -1 is refused" \
	"$IBUNION" gen fattree 4 3 --seed -1
for bad in ' 1' '1x' '+1' '' '0x' '99999999999999999999'; do
	t_fails 2 "--seed must be" "--seed '$bad' is refused" \
		"$IBUNION" gen fattree 4 3 --seed "$bad"
done
t_fails 2 "--lmc must be an integer in 0\.\.7, not '010'" "--lmc 010 is refused" \
	"$IBUNION" lids "$net" --lmc 010
t_fails 2 "not a multicast GID" "mcast join --mgid -1 is refused" \
	"$IBUNION" mcast join --mgid -1
t_expect "--seed 0x10 is hex" "$IBUNION" gen fattree 4 3 --seed 0x10 -o hex.net
t_fails 2 "M must be an integer in 4\.\.254" "gen M 4.0 is refused" \
	"$IBUNION" gen fattree 4.0 3

# ---- 5,000 empty table headers: memory follows the entries
{
	cat "$FIXTURES/ft43-lmc2.lfts"
	for ((i = 0; i < 5000; i++)); do
		printf 'Unicast lids [0x0-0xbfff] of switch Lid %d guid 0x%016x (S%d):\n0 valid lids dumped\n' \
			$((i + 1)) $((0x300000 + i)) "$i"
	done
} >headers.lfts
( ulimit -v 60000; "$IBUNION" diff headers.lfts headers.lfts ) >diff.out 2>&1
t_equal "diff of 5,000 empty headers runs in 60 MB of address space" "$?" 0
( ulimit -v 60000; "$IBUNION" check "$net" headers.lfts ) >check.out 2>&1
t_equal "check of 5,000 empty headers: exit 3 (unknown switches)" "$?" 3
t_no_grep "... not for want of memory" 'out of memory' check.out

# ---- ibnetdiscover cache (strict input): our own bounded reader, file:offset
cache=$FIXTURES/ft43-shuf17.ibnd-cache
lfts=$FIXTURES/ft43-shuf17.lfts
# poke NAME OFFSET BYTES: a copy of the cache with BYTES (printf) at OFFSET
poke()
{
	cp "$cache" "$1" && printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
poke lmc.cache 10721 '\367'
( ulimit -v 1000000; timeout 1 "$IBUNION" check lmc.cache "$lfts" ) >/dev/null 2>lmc.err
t_equal "cache with a port LMC of 247: exit 3 within 1 s in 1 GB" "$?" 3
t_grep "... naming file and offset" 'lmc\.cache: offset 10721: .*LMC 247' lmc.err
poke count.cache 8 '\377\377\377\377'
t_fails 3 'count\.cache: offset 8: header counts 4294967295 nodes' \
	"cache node count beyond the file refused" "$IBUNION" check count.cache "$lfts"
poke type.cache 104 '\011'
t_fails 3 'type\.cache: offset 104: node 0 has type 9' \
	"cache node type 9 refused" "$IBUNION" check type.cache "$lfts"
poke nports.cache 105 '\000'
t_fails 3 'nports\.cache: offset 105: node 0 has 0 ports' \
	"cache node with 0 ports refused" "$IBUNION" check nports.cache "$lfts"
poke keys.cache 234 '\377'
t_fails 3 'keys\.cache: offset [0-9]+: node [0-9]+ (cut short|has [0-9]+ port keys)' \
	"cache key count beyond the file refused" "$IBUNION" check keys.cache "$lfts"
poke swap.cache 0 '\217\347\203\053'
t_fails 3 'swap\.cache: offset 0: not a little-endian' \
	"byte-swapped cache refused by name" "$IBUNION" check swap.cache "$lfts"
{ cat "$cache"; printf x; } >tail.cache
t_fails 3 'tail\.cache: offset 19544: 1 bytes after the last port record' \
	"cache with trailing bytes refused" "$IBUNION" check tail.cache "$lfts"
# every 61st byte set to 0xff: an answer (0, 1 or 3) within 2 s, each time
bad=0
for ((i = 0; i < $(stat -c %s "$cache"); i += 61)); do
	poke sweep.cache "$i" '\377'
	( ulimit -v 1000000; timeout 2 "$IBUNION" check sweep.cache "$lfts" ) >/dev/null 2>&1
	rc=$?
	case $rc in 0|1|3) ;; *) bad=$((bad + 1)); diag "byte $i: exit $rc" ;; esac
done
t_equal "321 one-byte corruptions of a cache: no hang, no crash" "$bad" 0

# ---- strict numbers and ranges: file:line, exit 3
fx=$FIXTURES/ft43-shuf17
printf 'Switch 4294967300 "S0-0.0"\n[1] "H"[1]\n\nHca 1 "H"\n[1] "S0-0.0"[1]\n' >ports.net
t_fails 3 'ports\.net:1: port count out of range' \
	"net file: port count 4294967300 is no 4" "$IBUNION" lids ports.net
printf 'switchguid=0x0\nSwitch 2 "a"\n[1] "b"[1]\n\nSwitch 2 "b"\n[1] "a"[1]\n' >zero.net
t_fails 3 'zero\.net:1: GUID 0' "net file: switchguid=0x0 refused" "$IBUNION" lids zero.net
{ head -c 1048576 /dev/zero | tr '\0' 'x'; echo; cat "$fx.net"; } >junk.net
t_fails 3 'junk\.net:1: no node records \(not a net file\?\)' \
	"net file: a 1 MB junk line before the first record refused" "$IBUNION" lids junk.net
# [1](10001f) -> [1](0000000000010001f): 17 hex digits, the same value
sed '0,/^\[1\](/s/^\[1\](/[1](00000000000/' "$FIXTURES/ft43-lmc2.ibnd" >g17.ibnd
t_fails 3 'g17\.ibnd:[0-9]+: bad port GUID' \
	"ibnetdiscover: a port GUID of 17+ hex digits refused" "$IBUNION" lids g17.ibnd
# opensm-subnet.lst
lst=$fx.subnet.lst
for c in 's/PN:01 }/PN:100000001 }/;bad PN' 's/Ports:01 /Ports:100000001 /;bad Ports' \
	's/PN:01 }/PN:01zz }/;bad PN' 's/LID:0004/LID:FFFF/;bad LID' \
	's/LID:0004/LID:C000/;bad LID' 's/LID:0004/LID:0000/;bad LID' \
	's/NodeGUID:0000000000100000/NodeGUID:00000000001000000/;bad NodeGUID'; do
	sed "1${c%;*}" "$lst" >bad.lst
	t_fails 3 "bad\.lst:1: .*${c#*;}" "subnet.lst: ${c%;*} refused" \
		"$IBUNION" lids bad.lst
done
sed '2s/LID:0008/LID:0009/' "$lst" >twolids.lst
t_fails 3 'twolids\.lst:3: .* has LID 0008 here, 0009 on line 2' \
	"subnet.lst: one port given two LIDs refused" "$IBUNION" lids twolids.lst
sed '3s/ PN:/ \x00PN:/' "$lst" >nul.lst
t_fails 3 'nul\.lst:3: NUL byte in line' \
	"subnet.lst: a NUL byte is named as such (not 'line too long')" "$IBUNION" lids nul.lst
{ printf '\357\273\277'; cat "$lst"; } >bom.lst
sed '1s/{hca-0\.0\.0}/{hca-0.0.0'"$(printf 'y%.0s' $(seq 1100))"'}/' "$lst" >long.lst
for f in bom.lst long.lst; do
	"$IBUNION" lids "$f" -o "$f.g2l" 2>"$f.err"
	t_equal "subnet.lst: $f (BOM / first line over 1 KB) read as a subnet.lst" "$?" 0
done
# sl2vl dump (ibunion check --deadlock --sl2vl)
vls='0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1'
for c in "big;8;4294967297 1 : $vls;expected 'IN OUT : 16 VLs'" \
	"neg;8;-1 1 : $vls;expected 'IN OUT : 16 VLs'" \
	"extra;8;1 2 : $vls 3;more than 16 VLs" \
	"vl15;8;1 2 : 15 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1;VL 15" \
	"twice;8;1 2 : $vls;given twice" \
	"lid;99999999999;1 2 : $vls;bad base LID"; do
	IFS=';' read -r f lid row want <<<"$c"
	printf 'Switch 0x0000000000200000, base LID %s, "sw"\n%s\n' "$lid" "$row" >"$f.sl2vl"
	[ "$f" = twice ] && printf 'Switch 0x0000000000200000, base LID 8, "sw"\n%s\n' "$row" >>"$f.sl2vl"
	t_fails 3 "$f\\.sl2vl:[0-9]+: .*$want" "sl2vl: $f refused ($want)" \
		"$IBUNION" check --deadlock --sl2vl "$f.sl2vl" "$fx.net" "$fx.lfts"
done
"$IBUNION" check --deadlock --sl2vl neg.sl2vl "$fx.net" "$fx.lfts" >/dev/null 2>neg.err
t_no_grep "sl2vl: '-1 1 :' is no 'has no port 1'" 'has no port' neg.err
# LFT / MFT dumps
sed '1s/guid 0x\([0-9a-f]*\)/guid 0x\10/' "$fx.lfts" >g17.lfts
t_fails 3 'g17\.lfts:1: bad switch GUID' "LFT dump: a 17-digit GUID refused" \
	"$IBUNION" check "$fx.net" g17.lfts
sed '1s/guid 0x[0-9a-f]*/guid 0x00000000009fffff/' "$fx.lfts" >name.lfts
t_fails 3 'name\.lfts:1: switch GUID 0x00000000009fffff is not in' \
	"LFT dump: a table matched only by name refused" "$IBUNION" check "$fx.net" name.lfts
sed '1s/\[0x0-0x6b\]/[0x6b-0x0]/' "$fx.lfts" >rev.lfts
t_fails 3 'rev\.lfts:1: LID range of the table header reversed' \
	"LFT dump: reversed header range refused" "$IBUNION" check "$fx.net" rev.lfts
awk 'NR == 4 { print "0x0000 001 : (Switch portguid 0x0000000000200000: '"'"'x'"'"')" } { print }' \
	"$fx.lfts" >lid0.lfts
t_fails 3 'lid0\.lfts:4: an entry for LID 0' "LFT dump: an entry for LID 0 refused" \
	"$IBUNION" check "$fx.net" lid0.lfts
sed '1s/\[0xc000-0xc3ff\]/[0xc000-0xffffffff]/' "$FIXTURES/ibft43-fig7.mfts" >range.mfts
t_fails 3 'range\.mfts:1: bad MLID range' "MFT dump: range [0xc000-0xffffffff] refused" \
	"$IBUNION" mcast check "$FIXTURES/ibft43-gen.net" range.mfts
( ulimit -v 200000; timeout 5 "$IBUNION" lids /dev/zero ) >/dev/null 2>zero.err
t_equal "an endless input without newlines (/dev/zero): exit 3 in 200 MB, 5 s" "$?" 3
t_grep "... naming the line" '/dev/zero:1: line longer than 1048576 bytes' zero.err

# ---- stdout on a full disk (strict input): exit 3, not a clean run
fx=$FIXTURES/ft43-shuf17
for cmd in "check $fx.net $fx.lfts" "diff $fx.lfts $fx.lfts" \
	"load $fx.net $fx.lfts --pattern shift" \
	"mcast check $FIXTURES/ibft43-gen.net $FIXTURES/ibft43-fig7.mfts" \
	"route $fx.net" "--help" "check --help"; do
	# shellcheck disable=SC2086
	"$IBUNION" $cmd >/dev/full 2>full.err
	t_equal "ibunion $cmd >/dev/full exits 3" "$?" 3
	t_grep "... saying stdout failed" 'write failed: No space left' full.err
done

# a switch as a multicast member is legal (port 0) but said, never silent
sw=$(awk '/^Switch/ { sub(/^[^"]*"/, ""); sub(/".*/, ""); print; exit }' "$FIXTURES/ibft43-gen.net")
{ head -n 2 "$FIXTURES/ibft43-fig7.members"; echo "0xc000 $sw"; } >swmember.members
"$IBUNION" mcast tree "$FIXTURES/ibft43-gen.net" swmember.members -q >swmember.out 2>&1
t_equal "mcast tree: a switch member is accepted" "$?" 0
t_grep "... with a -W- line naming the switch" "^-W- MLID 0x[0-9a-f]+: member '$sw' .* is a switch" swmember.out

done_testing
