/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/modules.h"

static void lsmod_peermem_loaded(void **state)
{
	struct modules m;
	const struct kmod *k;

	(void)state;
	PARSE_FIXTURE(modules_parse, m, "lsmod__h100_peermem_loaded_ib_core_users.txt", 0);
	assert_int_equal(m.n, 3);
	assert_true(modules_has(&m, "nvidia_peermem"));
	assert_true(modules_has(&m, "nvidia-peermem"));
	k = modules_find(&m, "ib_core");
	assert_int_equal(k->size, 434176);
	assert_int_equal(k->refcount, 9);
	assert_int_equal(k->nusers, 9);
	assert_string_equal(k->users[0], "rdma_cm");
	assert_null(k->state);
	assert_true(modules_used_by(&m, "ib_core", "nvidia_peermem"));
	assert_true(modules_used_by(&m, "nvidia", "nvidia_peermem"));
	assert_false(modules_used_by(&m, "nvidia", "gdrdrv"));
	assert_int_equal(modules_find(&m, "nvidia")->refcount, 550);
	assert_false(modules_has(&m, "gdrdrv"));
	modules_release(&m);
}

static void lsmod_gdrdrv(void **state)
{
	struct modules m;

	(void)state;
	PARSE_FIXTURE(modules_parse, m, "lsmod__grep_gdrdrv_no_peermem.txt", 0);
	assert_int_equal(m.n, 2);
	assert_true(modules_has(&m, "gdrdrv"));
	assert_int_equal(modules_find(&m, "gdrdrv")->refcount, 0);
	assert_true(modules_used_by(&m, "nvidia", "gdrdrv"));
	assert_false(modules_has(&m, "nvidia_peermem"));
	assert_false(modules_used_by(&m, "nvidia", "nvidia_peermem"));
	assert_int_equal(modules_find(&m, "nvidia")->refcount, 1361);
	modules_release(&m);

	PARSE_FIXTURE(modules_parse, m, "lsmod__grep_gdrdrv_with_nv_peer_mem.txt", 0);
	assert_int_equal(m.n, 2);
	assert_true(modules_used_by(&m, "nvidia", "nv_peer_mem"));
	assert_false(modules_has(&m, "nv_peer_mem")); /* grep showed only its users */
	modules_release(&m);

	PARSE_FIXTURE(modules_parse, m, "lsmod__grep_peermem_empty_output.txt", 0);
	assert_int_equal(m.n, 0);
	modules_release(&m);
}

static void proc_modules_and_edge(void **state)
{
	struct modules m;
	const struct kmod *k;

	(void)state;
	PARSE_STR(modules_parse, m,
		  "nvidia_peermem 16384 0 - Live 0x0000000000000000 (OE)\n"
		  "ib_core 434176 9 rdma_cm,ib_ipoib,nvidia_peermem, Live 0xffffffffc0a00000\r\n"
		  "Module                  Size  Used by\n"
		  "unloading 4096 - - Unloading 0x0\n"
		  "permanent_mod 8192 1 [permanent]\n"
		  "trunc 12",
		  0);
	assert_int_equal(m.n, 4);
	k = modules_find(&m, "nvidia_peermem");
	assert_int_equal(k->nusers, 0);
	assert_string_equal(k->state, "Live");
	k = modules_find(&m, "ib_core");
	assert_int_equal(k->nusers, 3);
	assert_string_equal(k->users[2], "nvidia_peermem");
	assert_int_equal(modules_find(&m, "unloading")->refcount, -1);
	assert_int_equal(modules_find(&m, "permanent_mod")->nusers, 0);
	assert_null(modules_find(&m, "trunc"));
	modules_release(&m);
	PARSE_STR(modules_parse, m, "lsmod: command not found\n", -1);
	modules_release(&m);
}

static void modinfo_outputs(void **state)
{
	struct modinfo mi;
	size_t len;
	char *body, *part;

	(void)state;
	PARSE_FIXTURE(modinfo_parse, mi, "modinfo__gdrdrv_module_not_found.txt", 0);
	assert_true(mi.not_found);
	assert_string_equal(mi.module, "gdrdrv");
	assert_null(mi.filename);
	modinfo_release(&mi);

	body = fixture_body("modinfo__nv_peer_mem_installed_but_not_loaded.txt", &len);
	part = fixture_part(body, 2, &len);
	PARSE_STR(modinfo_parse, mi, part, 0);
	assert_false(mi.not_found);
	assert_string_equal(mi.filename,
			    "/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko");
	assert_string_equal(mi.version, "1.0-8");
	assert_string_equal(mi.module, "nv_peer_mem");
	assert_string_equal(mi.vermagic, "4.15.0-46-generic SMP mod_unload");
	assert_int_equal(mi.ndepends, 1);
	assert_string_equal(mi.depends[0], "ib_core");
	modinfo_release(&mi);
	free(part);
	/* the first part (lsmod | grep nv_peer) printed nothing */
	part = fixture_part(body, 1, &len);
	assert_int_equal(len, 0);
	free(part);
	free(body);

	PARSE_FIXTURE(modinfo_parse, mi, "dmesg_modinfo__gdrdrv_2.5_loaded_but_sanity_fails.txt",
		      0);
	assert_string_equal(mi.filename,
			    "/lib/modules/4.18.0-553.16.1.el8_10.x86_64/extra/gdrdrv.ko.xz");
	assert_string_equal(mi.version, "2.5");
	assert_string_equal(mi.module, "gdrdrv");
	assert_string_equal(mi.license, "Dual MIT/GPL");
	assert_string_equal(mi.depends[0], "nv-p2p-dummy");
	modinfo_release(&mi);

	PARSE_STR(modinfo_parse, mi, "", -1);
	modinfo_release(&mi);
	PARSE_STR(modinfo_parse, mi, "filename: /x.ko\r\ndepends: a,b,\r\nversion:", 0);
	assert_int_equal(mi.ndepends, 2);
	assert_string_equal(mi.version, "");
	modinfo_release(&mi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lsmod_peermem_loaded),
		cmocka_unit_test(lsmod_gdrdrv),
		cmocka_unit_test(proc_modules_and_edge),
		cmocka_unit_test(modinfo_outputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
