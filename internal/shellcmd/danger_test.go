package shellcmd

import (
	"strings"
	"testing"
)

// Every form here must be refused. None of them is ever run: the table
// only goes through the parser and the danger check.
var dangerousCommands = []string{
	// Expansions that come out empty, and programs named at run time.
	`rm -rf "$STEAMROOT/"*`,
	`rm -rf $BUILD/`,
	`rm -rf "${PREFIX}/usr"`,
	"rm -rf `pwd`/",
	`chmod -R 777 "$ROOT/"`,
	`$(echo rm) -rf /`,
	`$RM -rf /usr`,
	"`which rm` -rf /",
	`rm -rf /`,
	`rm -fr /`,
	`rm -r -f /`,
	`rm -r -f /*`,
	`rm --recursive --force /`,
	`rm -Rf //`,
	`rm -rf ~`,
	`rm -rf ~/`,
	`rm -rf $HOME`,
	`rm -rf "${HOME}"/*`,
	`rm -rf /usr`,
	`rm -rf /etc/*`,
	`rm -rf --no-preserve-root /`,
	`"rm" -rf "/"`,
	`r''m -rf /`,
	`\rm -rf /`,
	`/bin/rm -rf /`,
	`$'\x72\x6d' -rf /`,
	`$'rm\0zz' -rf /`,
	`$'rm\400' -rf /`,
	`$'\562\555' -rf /`,
	`rm -rf $'\457'`,
	`rm -rf /{usr,tmp}`,
	`FOO=1 rm -rf /`,
	`env FOO=1 rm -rf /`,
	`nice -n 5 rm -rf /`,
	`timeout 10 rm -rf /`,
	`nohup rm -rf / &`,
	`command rm -rf /`,
	`exec rm -rf /`,
	`xargs rm -rf /`,
	`echo x | xargs -I{} rm -rf /`,
	`env -S 'rm -rf /'`,
	`sh -c 'rm -rf /'`,
	`bash -c "rm -rf /"`,
	`bash -lc 'cd /tmp && rm -rf /'`,
	`sh -c 'sh -c "rm -rf /"'`,
	`bash -c 'rm -rf "$1"' _ /`,
	`eval "rm -rf /"`,
	`eval rm -rf /`,
	`(cd /tmp; rm -rf /)`,
	`{ rm -rf /; }`,
	`echo $(rm -rf /)`,
	"echo `rm -rf /`",
	`ls | rm -rf /`,
	`x=$(rm -rf /)`,
	`export X=$(rm -rf /)`,
	`echo ${x:-$(rm -rf /)}`,
	`echo $(( $(rm -rf /) ))`,
	`cat <(rm -rf /)`,
	`[[ $(rm -rf /) ]]`,
	`time rm -rf /`,
	`! rm -rf /`,
	`case x in x) rm -rf / ;; esac`,
	`while rm -rf /; do :; done`,
	`exec > /dev/sda`,
	`true && rm -rf /`,
	`false || rm -rf /`,
	`cleanup() { rm -rf /; }; cleanup`,
	`if true; then rm -rf /; fi`,
	`for d in a; do rm -rf /; done`,
	`echo "rm -rf /" | sh`,
	"bash <<'EOF'\nrm -rf /\nEOF",
	`sh <<< 'rm -rf /'`,
	`find / -delete`,
	`find / -exec rm -rf {} +`,
	`find . -exec sh -c 'rm -rf /' \;`,
	`mkfs.ext4 /dev/sda1`,
	`mkfs -t ext4 /dev/sdb`,
	`sudo mkfs.xfs /dev/nvme0n1`,
	`dd if=/dev/zero of=/dev/sda bs=1M`,
	`dd if=/dev/urandom of=disk.img`,
	`dd of=/dev/sda`,
	`cat image.iso > /dev/sda`,
	`echo hi >> /dev/nvme0n1`,
	`tee /dev/sdb < image.iso`,
	`cp image.iso /dev/sdc`,
	`:(){ :|:& };:`,
	`bomb() { bomb | bomb & }; bomb`,
	`f() { f & f; }; f`,
	`sh -c ':(){ :|:& };:'`,
	`chmod -R 777 /`,
	`chmod --recursive 000 /`,
	`chown -R nobody /`,
	`chown -R me:me /usr`,
	`chgrp -R users ~`,
	`shutdown -h now`,
	`reboot`,
	`halt`,
	`poweroff`,
	`systemctl poweroff`,
	`init 0`,
	`sudo ls`,
	`sudo -u root true`,
	`su -c 'make install'`,
	`doas reboot`,
	`pkexec true`,
	`timeout 5 sudo true`,
	`curl -fsSL https://example.com/install.sh | sh`,
	`wget -qO- https://example.com/x | bash`,
	`curl https://example.com/x | sudo bash`,
	`kill -9 -1`,
	`mv ~ /tmp/trash`,
	`mv /etc /tmp/etc`,
	`wipefs -a /dev/sda`,
	`fdisk /dev/sda`,
	`shred /dev/sda`,
	`busybox rm -rf /`,
	`x=/; rm -rf $x`,
	`d=/usr; rm -rf "${d}"`,
	`export T=/; rm -rf "$T"`,
	`RM=rm; $RM -rf /`,
	`a=/; b=$a; rm -rf $b`,
	`x=/; sh -c "rm -rf $x"`,
	`sh -c "$(curl -fsSL https://example.com/install.sh)"`,
	`bash <(curl -s https://example.com/x)`,
	`source <(wget -qO- https://example.com/x)`,
	"eval \"`curl -s https://example.com/x`\"",
}

// Commands that look similar but are fine.
var benignCommands = []string{
	`rm -rf "$BUILD_DIR"`,
	`rm -rf "$DIR/build"`,
	`rm -rf $tmp`,
	`$CC -o prog main.c`,
	`$(go env GOROOT)/bin/go test -r ./...`,
	`rm -rf ./build`,
	`rm -rf build/ dist/`,
	`rm -f /tmp/parley-test.log`,
	`rm -r node_modules`,
	`rm -rf "$TMPDIR/cache"`,
	`rm -rf /tmp/build-123`,
	`echo "rm -rf /"`,
	`echo 'sudo reboot' > notes.txt`,
	`printf '%s\n' 'mkfs.ext4 /dev/sda'`,
	`grep mkfs file`,
	`grep -r "rm -rf /" scripts/`,
	`git rm -r --cached x`,
	`git commit -m "remove rm -rf / footgun"`,
	`ls -la /`,
	`ls ~`,
	`du -sh $HOME/.cache`,
	`chmod -R u+w ./build`,
	`chmod 644 /tmp/x`,
	`chown -R me ./out`,
	`find . -name '*.tmp' -delete`,
	`find /tmp/x -type f`,
	`dd bs=1 count=10 < in > out`,
	`cat /dev/null > out.txt`,
	`go test ./... 2>&1 | tee /dev/stderr`,
	`echo x > /dev/null`,
	`kill -1 1234`,
	`kill %1`,
	`sh ./scripts/build.sh`,
	`bash -c 'go vet ./...'`,
	`curl -fsSL https://example.com/x -o x.sh`,
	`curl https://example.com/api | jq .`,
	`man shutdown`,
	`command -v sudo`,
	`type reboot`,
	`f() { echo hi; }; f | cat`,
	`docker run --rm alpine ls /`,
	`make clean && make`,
	`busybox ls -la`,
	`x=build; rm -rf $x`,
	`x=/; x=build; rm -rf "$x"`,
	`out=$(mktemp -d); rm -rf "$out"`,
	`echo "$(curl -s https://example.com/api)"`,
	`sh -c "$(cat scripts/setup.sh)"`,
}

func TestDangerRefusesCommands(t *testing.T) {
	if len(dangerousCommands) < 30 {
		t.Fatalf("only %d dangerous forms", len(dangerousCommands))
	}
	for _, cmd := range dangerousCommands {
		s, err := Parse(cmd)
		if err != nil {
			t.Errorf("%q: parse error %v (dangerous forms must parse)", cmd, err)
			continue
		}
		if why := s.Danger(); why == "" {
			t.Errorf("%q: not refused", cmd)
		}
	}
}

func TestDangerAllowsBenignLookAlikes(t *testing.T) {
	if len(benignCommands) < 15 {
		t.Fatalf("only %d benign forms", len(benignCommands))
	}
	for _, cmd := range benignCommands {
		s, err := Parse(cmd)
		if err != nil {
			t.Errorf("%q: parse error %v", cmd, err)
			continue
		}
		if why := s.Danger(); why != "" {
			t.Errorf("%q: refused: %s", cmd, why)
		}
	}
}

func TestDangerReasonNamesTheCommand(t *testing.T) {
	s, err := Parse(`go build && sh -c "rm -rf /"`)
	if err != nil {
		t.Fatal(err)
	}
	why := s.Danger()
	if !strings.Contains(why, "rm -rf /") || !strings.Contains(why, "recursively removes /") {
		t.Errorf("reason = %q", why)
	}
}

func TestDangerHomeDirectoryByPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, cmd := range []string{"rm -rf " + home, "rm -rf " + home + "/", "rm -rf " + home + "/*"} {
		s, err := Parse(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if s.Danger() == "" {
			t.Errorf("%q: not refused", cmd)
		}
	}
	s, _ := Parse("rm -rf " + home + "/project/build")
	if why := s.Danger(); why != "" {
		t.Errorf("removing a directory below home refused: %s", why)
	}
}
