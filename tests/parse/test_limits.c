/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/limits.h"
#include "parse/mounts.h"
#include "parse/proc_status.h"

static void ulimit_fixtures(void **state)
{
	struct limits l;

	(void)state;
	PARSE_FIXTURE(limits_parse, l, "ulimit_-Ha__centos7_memlock_unlimited.txt", 0);
	assert_int_equal(l.format, LIMITS_BASH);
	assert_true(l.have_memlock);
	assert_true(l.memlock == LIMIT_UNLIMITED);
	assert_true(l.have_nofile);
	assert_true(l.nofile == 65536);
	limits_release(&l);

	PARSE_FIXTURE(limits_parse, l, "ulimit_-a__cx6_host_memlock_unlimited.txt", 0);
	assert_true(l.memlock == LIMIT_UNLIMITED);
	assert_true(l.nofile == 1024);
	limits_release(&l);

	PARSE_FIXTURE(limits_parse, l, "ulimit_-a__docker_memlock_4k_line.txt", 0);
	assert_int_equal(l.format, LIMITS_BASH);
	assert_true(l.memlock == 4096); /* 4 kbytes */
	assert_true(l.nofile == 1073741816);
	limits_release(&l);
}

static void limits_other_forms(void **state)
{
	struct limits l;

	(void)state;
	PARSE_STR(limits_parse, l,
		  "-t: time(seconds)         unlimited\n"
		  "-l: locked-in-memory size (kbytes) 64\n-n: file descriptors     1024\n",
		  0);
	assert_int_equal(l.format, LIMITS_DASH);
	assert_true(l.memlock == 64 * 1024);
	assert_true(l.nofile == 1024);
	limits_release(&l);

	PARSE_STR(limits_parse, l, "unlimited\n", 0);
	assert_int_equal(l.format, LIMITS_BARE);
	assert_true(l.memlock == LIMIT_UNLIMITED);
	limits_release(&l);
	PARSE_STR(limits_parse, l, "65536", 0);
	assert_true(l.memlock == 65536ULL * 1024);
	limits_release(&l);

	PARSE_STR(
		limits_parse, l,
		"Limit                     Soft Limit           Hard Limit           Units     \n"
		"Max open files            1048576              1048576              files     \n"
		"Max locked memory         65536                unlimited            bytes     \n",
		0);
	assert_int_equal(l.format, LIMITS_PROC);
	assert_true(l.have_proc);
	assert_true(l.memlock_soft == 65536);
	assert_true(l.memlock_hard == LIMIT_UNLIMITED);
	assert_true(l.nofile_soft == 1048576);
	limits_release(&l);
	PARSE_STR(limits_parse, l, "Max locked memory  unlimited unlimited bytes\r\n", 0);
	assert_true(l.memlock_soft == LIMIT_UNLIMITED);
	limits_release(&l);

	PARSE_STR(limits_parse, l, "max locked memory (kbytes, -l) 99999999999999999999\n", -1);
	limits_release(&l);
	PARSE_STR(limits_parse, l, "max locked memory (kbytes, -l) 18014398509481984\n", 0);
	assert_true(l.memlock == LIMIT_UNLIMITED); /* saturates */
	limits_release(&l);
	PARSE_STR(limits_parse, l, "", -1);
	limits_release(&l);
	PARSE_STR(limits_parse, l, "open files (-n) 1024\n", -1);
	limits_release(&l);
}

static void proc_status(void **state)
{
	struct proc_status p;

	(void)state;
	PARSE_STR(
		proc_status_parse, p,
		"Name:\tcat\nUmask:\t0022\nCapInh:\t0000000000000000\n"
		"CapPrm:\t00000000a80425fb\nCapEff:\t00000000a80425fb\nCapBnd:\t00000000a80425fb\n"
		"CapAmb:\t0000000000000000\nNoNewPrivs:\t0\n",
		0);
	assert_string_equal(p.name, "cat");
	assert_true(p.cap_eff == 0xa80425fbULL);
	/* Docker's default set: no IPC_LOCK, SYS_RESOURCE or SYS_ADMIN */
	assert_false(proc_status_has_cap(p.cap_eff, CI_CAP_IPC_LOCK));
	assert_false(proc_status_has_cap(p.cap_eff, CI_CAP_SYS_RESOURCE));
	assert_false(proc_status_has_cap(p.cap_eff, CI_CAP_SYS_ADMIN));
	assert_true(proc_status_has_cap(p.cap_eff, 0)); /* CHOWN */
	proc_status_release(&p);
	PARSE_STR(proc_status_parse, p, "CapEff:\t000001ffffffffff\r\n", 0);
	assert_true(proc_status_has_cap(p.cap_eff, CI_CAP_IPC_LOCK));
	assert_true(proc_status_has_cap(p.cap_eff, CI_CAP_SYS_RESOURCE));
	assert_false(proc_status_has_cap(p.cap_eff, 64));
	proc_status_release(&p);
	PARSE_STR(proc_status_parse, p, "CapEff:\tzz\n", -1);
	proc_status_release(&p);
}

static void mounts_and_df(void **state)
{
	struct mounts m;
	struct df d;
	const struct mount_entry *e;
	uint64_t b;

	(void)state;
	PARSE_STR(mounts_parse, m,
		  "overlay / overlay rw,relatime,lowerdir=/a 0 0\n"
		  "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0\n"
		  "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=2097152k,inode64 0 0\n"
		  "/dev/sda1 /mnt/my\\040disk ext4 rw 0 0\n",
		  0);
	assert_int_equal(m.n, 4);
	e = mounts_find(&m, "/dev/shm");
	assert_string_equal(e->source, "tmpfs");
	assert_string_equal(e->fstype, "tmpfs");
	assert_true(mount_size_option(e, &b));
	assert_true(b == 2ULL << 30);
	assert_true(mount_size_option(&m.v[1], &b));
	assert_true(b == 64ULL << 20);
	assert_non_null(mounts_find(&m, "/mnt/my disk"));
	assert_false(mount_size_option(&m.v[0], &b));
	mounts_release(&m);
	PARSE_STR(mounts_parse, m, "tmpfs /dev/shm tmpfs rw,size=50%\n", 0);
	assert_false(mount_size_option(&m.v[0], &b));
	mounts_release(&m);
	PARSE_STR(mounts_parse, m, "", -1);
	mounts_release(&m);

	PARSE_STR(df_parse, d,
		  "Filesystem     1K-blocks  Used Available Use% Mounted on\n"
		  "shm                65536     0     65536   0% /dev/shm\n",
		  0);
	assert_int_equal(d.n, 1);
	assert_true(df_find(&d, "/dev/shm")->size_bytes == 64ULL << 20);
	assert_int_equal(d.v[0].use_pct, 0);
	df_release(&d);
	PARSE_STR(df_parse, d,
		  "Filesystem      Size  Used Avail Use% Mounted on\r\n"
		  "tmpfs            64M     0   64M   0% /dev/shm\r\n",
		  0);
	assert_true(d.v[0].size_bytes == 64ULL << 20);
	df_release(&d);
	PARSE_STR(df_parse, d,
		  "Filesystem 1B-blocks Used Available Use% Mounted on\n"
		  "a-very-long-filesystem-name-that-wraps\n 1073741824 0 1073741824 0% /dev/shm\n",
		  0);
	assert_string_equal(d.v[0].filesystem, "a-very-long-filesystem-name-that-wraps");
	assert_true(d.v[0].size_bytes == 1073741824ULL);
	df_release(&d);
	PARSE_STR(df_parse, d, "df: /dev/shm: No such file or directory\n", -1);
	df_release(&d);
	assert_true(df_human_size("1.5G", &b) && b == 3ULL << 29);
	assert_false(df_human_size("12Q", &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ulimit_fixtures),
		cmocka_unit_test(limits_other_forms),
		cmocka_unit_test(proc_status),
		cmocka_unit_test(mounts_and_df),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
