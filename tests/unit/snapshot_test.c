// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The snapshot's building blocks: SHA-256 against the FIPS 180-4 examples,
 * tar writing and reading back (long names, refusals), MANIFEST parsing.
 */
#include <stdlib.h>
#include <string.h>

#include "../../rdmadiag/rdmadiag.h"
#include "../../snapshot/snapshot.h"
#include "../../util/sha256.h"
#include "../../util/snapshot_tar.h"
#include "tap.h"

static void test_sha256(void)
{
	char hex[65];
	static char million[1000000];

	sha256_hex("abc", 3, hex);
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 of abc");
	sha256_hex("", 0, hex);
	is_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 of nothing");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	is_str(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "sha256, two blocks");
	memset(million, 'a', sizeof(million));
	sha256_hex(million, sizeof(million), hex);
	is_str(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "sha256 of a million a");
}

static void test_tar_roundtrip(void)
{
	char longname[400];
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct tar_entry e;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	longname[150] = '/';
	tar_add(fp, "MANIFEST", "m\n", 2, 0);
	tar_add(fp, "rec/a/fs/sys/class/net/eth0/address", "02:00:00:00:00:01\n", 18, 0);
	tar_add(fp, longname, "", 0, 0);
	tar_finish(fp);
	fclose(fp);
	ok(len % 512 == 0, "archive is whole blocks (%zu bytes)", len);
	fp = fmemopen(buf, len, "rb");
	ok(tar_next(fp, &e) == TAR_OK && !strcmp(e.name, "MANIFEST") && e.size == 2, "first member back");
	free(e.data);
	ok(tar_next(fp, &e) == TAR_OK && !strcmp((char *)e.data, "02:00:00:00:00:01\n"), "data back");
	free(e.data);
	ok(tar_next(fp, &e) == TAR_OK && !strcmp(e.name, longname), "a 399-byte name back (GNU long name)");
	free(e.data);
	ok(tar_next(fp, &e) == TAR_END, "end blocks");
	fclose(fp);
	/* truncated inside the second member, and a broken header checksum */
	fp = fmemopen(buf, 512 * 3 + 10, "rb");
	tar_next(fp, &e);
	free(e.data);
	ok(tar_next(fp, &e) == TAR_TRUNCATED, "truncated member");
	fclose(fp);
	buf[1024 + 5] ^= 1;	/* the name in the second member's header */
	fp = fmemopen(buf, len, "rb");
	tar_next(fp, &e);
	free(e.data);
	ok(tar_next(fp, &e) == TAR_BAD_HEADER, "header checksum");
	fclose(fp);
	free(buf);
}

static void test_names(void)
{
	ok(tar_name_safe("rec/x/fs/sys/class/net/eth0/address"), "plain name");
	ok(tar_name_safe("rec/x/netlink/cmd5-dump-a1=0.bin~2"), "generation name");
	ok(!tar_name_safe("../x") && !tar_name_safe("a/../x") && !tar_name_safe("a/.."), "..");
	ok(!tar_name_safe("/etc/passwd") && !tar_name_safe("a//b") && !tar_name_safe("a/") && !tar_name_safe(""),
	   "absolute, empty component, directory");
	ok(!tar_name_safe("a/./b") && !tar_name_safe("a\nb") && !tar_name_safe("a\\b"), ". and control characters");
}

static char *manifest_text(const char *body)
{
	char sha[65], *s = malloc(strlen(body) + 80);

	sha256_hex(body, strlen(body), sha);
	sprintf(s, "%send %s\n", body, sha);
	return s;
}

static void test_manifest(void)
{
	struct manifest m = { 0 };
	char why[256];
	char *t = manifest_text("rdmadiag-snapshot 1\nnew_key x\ncommand dev-show 0 dev show\n"
				"file e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 0 b\n"
				"file e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 0 a\n");

	ok(manifest_parse(&m, t, strlen(t), RDMADIAG_VERSION, why, sizeof(why)) == MANIFEST_OK && m.nfiles == 2, "manifest parses");
	ok(manifest_find(&m, "a") && manifest_find(&m, "b") && !manifest_find(&m, "c"), "files found by path");
	ok(manifest_has_command(&m, "dev-show") && !manifest_has_command(&m, "dev"), "commands");
	manifest_free(&m);
	free(t);
	t = manifest_text("rdmadiag-snapshot 7\n");
	ok(manifest_parse(&m, t, strlen(t), RDMADIAG_VERSION, why, sizeof(why)) == MANIFEST_NEWER && strstr(why, "schema 7"),
	   "newer schema: %s", why);
	manifest_free(&m);
	free(t);
	t = manifest_text("rdmadiag-snapshot 1\nfile 00 1 ../x\n");
	ok(manifest_parse(&m, t, strlen(t), RDMADIAG_VERSION, why, sizeof(why)) == MANIFEST_BAD, "bad file line: %s", why);
	manifest_free(&m);
	free(t);
	t = manifest_text("rdmadiag-snapshot 1\nhost a\n");
	t[22] = 'X';
	ok(manifest_parse(&m, t, strlen(t), RDMADIAG_VERSION, why, sizeof(why)) == MANIFEST_BAD && strstr(why, "checksum"),
	   "edited: %s", why);
	manifest_free(&m);
	free(t);
}

int main(void)
{
	test_sha256();
	test_tar_roundtrip();
	test_names();
	test_manifest();
	return tap_done();
}
