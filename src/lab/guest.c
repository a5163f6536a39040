// SPDX-License-Identifier: GPL-2.0-only
#include "lab/guest.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "lab/initramfs.h"
#include "system/procfile.h"

/*
 * /init, run by busybox sh. iproute2's ip sits in /usr/sbin ahead of
 * busybox's in PATH: perpkt's veth setup needs `ip netns`. Busybox
 * insmod cannot read a compressed module, so unxz comes first (6.12
 * ships veth.ko.xz). The files go out in the order the host needs them
 * to explain a failure; the data port is raw so no byte is translated,
 * and printk is quiet so no kernel line lands inside a file where the
 * data port is the console (arm64 virt has one UART). Emulated perf
 * interrupts are slow: the kernel would lower the sample rate mid-run
 * ("perf: interrupt took too long") unless perf_cpu_time_max_percent=0.
 */
static const char init_script[] =
"#!/bin/busybox sh\n"
"/bin/busybox --install -s /bin\n"
"export PATH=/usr/sbin:/bin\n"
"mkdir -p /proc /sys /dev /tmp /run /var\n"
"mount -t proc proc /proc\n"
"mount -t sysfs sysfs /sys\n"
"mount -t devtmpfs devtmpfs /dev\n"
"mount -t tmpfs tmpfs /tmp\n"
"mount -t tmpfs tmpfs /run\n"
"ln -s /run /var/run\n"
"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
". /perpkt/env\n"
"cut -d' ' -f1 /proc/uptime > /tmp/uptime\n"
"echo \"" LAB_GUEST_UP_MARK " $(cat /tmp/uptime) s, $(uname -r)\"\n"
"ip link set lo up\n"
"for m in /perpkt/modules/*.ko.xz; do [ -e \"$m\" ] && unxz \"$m\"; done\n"
"for m in /perpkt/modules/*.ko; do [ -e \"$m\" ] && insmod \"$m\"; done\n"
/* on the instruction clock the kernel boots one CPU (maxcpus=1: x86
 * SMP bring-up hangs under -icount) and the others come up here */
"if [ -n \"$LATE_CPUS\" ]; then\n"
"  for c in /sys/devices/system/cpu/cpu[1-9]*/online; do\n"
"    echo 1 > $c 2>/tmp/e || echo \"cannot bring ${c%/online} online: $(cat /tmp/e)\" > /tmp/guest-error\n"
"  done\n"
"fi\n"
"IF=\n"
/* the responder's --rps-cpus and --irq-cpu on the NIC's queues and
 * interrupts; what is in effect as conditions, one "KEY VALUE" a line */
"nic_tuning() {\n"
"  irqs=$(grep -E \"virtio[0-9]+-(input|output)|$IF\" /proc/interrupts | cut -d: -f1)\n"
"  for q in /sys/class/net/$IF/queues/rx-*/rps_cpus; do\n"
"    [ -z \"$RPS\" ] || echo \"$RPS\" > $q 2>/tmp/e || { echo \"$q to $RPS: $(cat /tmp/e)\" > /tmp/tuning-error; return 1; }\n"
"  done\n"
"  for n in $irqs; do\n"
"    [ -z \"$IRQ\" ] || echo \"$IRQ\" > /proc/irq/$n/smp_affinity_list 2>/tmp/e || { echo \"/proc/irq/$n/smp_affinity_list to $IRQ: $(cat /tmp/e)\" > /tmp/tuning-error; return 1; }\n"
"  done\n"
"  echo \"net.rps_cpus responder guest $IF:$(for q in /sys/class/net/$IF/queues/rx-*/rps_cpus; do q=${q%/rps_cpus}; echo -n \" ${q##*/} $(cat $q/rps_cpus)\"; done)${RPS:+ (set for the run)}\"\n"
"  echo \"net.irq_cpus responder guest $IF:$(for n in $irqs; do echo -n \" $(grep \"^ *$n:\" /proc/interrupts | awk '{print $NF}') CPU $(cat /proc/irq/$n/smp_affinity_list)\"; done)${IRQ:+ (set for the run)}\"\n"
"}\n"
/* the responder's --busy: a shell loop on each CPU, as the 2010 RPS
 * thread kept its target's CPUs busy (`while :; do :; done&`), pinned,
 * for as long as serve runs; said as a condition */
"spinners=\n"
"busy_start() {\n"
"  [ -n \"$BUSY\" ] || return 0\n"
"  for c in $(echo \"$BUSY\" | tr , ' '); do\n"
"    [ -d /sys/devices/system/cpu/cpu$c ] || { echo \"it has no CPU $c\" > /tmp/e; return 1; }\n"
"    taskset -c $c sh -c 'while :; do :; done' 2>/tmp/e &\n"
"    spinners=\"$spinners $!\"\n"
"  done\n"
"  echo \"workload.busy responder guest: CPUs $BUSY, a shell loop pinned on each (while :; do :; done) while serve ran\" >> /tmp/tuning\n"
"}\n"
/* exact mode: the kernel's own work after boot (6.12's asynchronous
 * RSA self-tests, about 19,000 instructions per round trip of a 0.5 s
 * window) out of the window: wait, at most 10 s of guest time, for a
 * tenth of a second at least 95% idle; on the instruction clock an
 * idle guest's wait costs the host nothing */
"settle() {\n"
"  n=0\n"
"  while [ $n -lt 100 ]; do\n"
"    read -r _ u0 n0 s0 i0 w0 q0 f0 _ < /proc/stat\n"
"    usleep 100000\n"
"    read -r _ u1 n1 s1 i1 w1 q1 f1 _ < /proc/stat\n"
"    t=$((u1 + n1 + s1 + i1 + w1 + q1 + f1 - u0 - n0 - s0 - i0 - w0 - q0 - f0))\n"
"    [ $t -gt 0 ] && [ $(((i1 - i0) * 100)) -ge $((t * 95)) ] && break\n"
"    n=$((n + 1))\n"
"  done\n"
"  echo \"perpkt-guest: settled after $n busy tenths of a second\"\n"
"}\n"
"if [ -n \"$ADDR\" ]; then\n"
"  for d in /sys/class/net/*; do [ \"${d##*/}\" = lo ] || { IF=${d##*/}; break; }; done\n"
"  [ -n \"$IF\" ] && ip addr add \"$ADDR\" dev \"$IF\" && ip link set \"$IF\" up\n"
"fi\n"
"# one record a boot: a copy of kallsyms would serve no later run\n"
"export PERPKT_KALLSYMS_CACHE=0\n"
"if [ ! -e /proc/sys/kernel/perf_event_paranoid ]; then\n"
"  echo \"kernel $(uname -r) has no perf_event support (no /proc/sys/kernel/perf_event_paranoid): build it with CONFIG_PERF_EVENTS=y\" > /tmp/guest-error\n"
"elif [ -n \"$ADDR\" ] && [ -z \"$IF\" ]; then\n"
"  echo \"kernel $(uname -r) shows no network interface for the emulated $NIC NIC: its driver is neither built in nor among the modules found\" > /tmp/guest-error\n"
"elif [ -n \"$BIND\" ] && ! nic_tuning > /tmp/tuning; then\n"
"  echo \"cannot steer the responder guest's $IF: cannot set $(cat /tmp/tuning-error)\" > /tmp/guest-error\n"
"elif [ -n \"$BIND\" ] && ! busy_start; then\n"
"  echo \"cannot keep the responder guest's CPUs $BUSY busy: $(cat /tmp/e)\" > /tmp/guest-error\n"
"elif [ -n \"$BIND\" ]; then\n"
"  echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent\n"
"  /usr/bin/perpkt serve --once --bind \"$BIND\" --key " LAB_GUEST_KEY " > /tmp/stdout 2> /tmp/stderr &\n"
"  pid=$!\n"
"  while kill -0 $pid 2>/dev/null && ! grep -q 'serve: listening' /tmp/stderr; do usleep 20000; done\n"
"  echo \"" LAB_GUEST_SERVE_MARK " on $BIND ($IF)\"\n"
"  wait $pid\n"
"  echo $? > /tmp/rc\n"
"  [ -z \"$spinners\" ] || kill $spinners\n"
"else\n"
"  [ -z \"$EXACT\" ] || settle\n"
"  set --\n"
"  while IFS= read -r a; do set -- \"$@\" \"$a\"; done < /perpkt/args\n"
"  echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent\n"
"  /usr/bin/perpkt record \"$@\" -o /tmp/profile.json > /tmp/stdout 2> /tmp/stderr\n"
"  echo $? > /tmp/rc\n"
"fi\n"
"cut -d' ' -f1 /proc/uptime >> /tmp/uptime\n"
"cat /sys/kernel/notes > /tmp/notes 2>/dev/null\n"
"if [ -n \"$EXACT\" ]; then\n"
"  cat /proc/modules > /tmp/modules 2>/dev/null\n"
"  [ \"$(cat /tmp/modules)\" = \"$(cat /perpkt/kallsyms.modules)\" ] ||\n"
"    gzip -c /proc/kallsyms > /tmp/kallsyms.gz\n"
"fi\n"
"echo 1 > /proc/sys/kernel/printk\n"
"stty -F /dev/$PORT raw -echo\n"
"{\n"
"  for f in guest-error rc stderr uptime notes tuning profile.json kallsyms.gz modules; do\n"
"    [ -e /tmp/$f ] || continue\n"
"    echo \"perpkt-file $f\"; base64 /tmp/$f; echo perpkt-end\n"
"  done\n"
"  echo perpkt-done\n"
"} > /dev/$PORT\n"
"sync\n"
"# an x86 kernel without ACPI cannot power off: it halts and QEMU runs\n"
"# on; a reset ends QEMU (-no-reboot)\n"
"[ -d /sys/firmware/acpi ] || [ \"$(uname -m)\" != x86_64 ] || reboot -f\n"
"poweroff -f\n";

/* A library named by DT_NEEDED, in the arch's folders. */
static int find_lib(const struct lab_arch *a, const char *name, char *out,
		    size_t len)
{
	size_t i;

	for (i = 0; a->libdirs[i]; i++) {
		snprintf(out, len, "%s/%.255s", a->libdirs[i], name);
		if (!access(out, R_OK))
			return 0;
	}
	return error("cannot find library '%s' for the %s guest under %s and the other library folders: install its %s package",
		     name, a->name, a->libdirs[0], a->name);
}

/* `host` at the same path in the guest, with its interpreter and the
 * libraries it needs, recursively (what ldd shows, for any arch). */
static int add_elf(struct initramfs *ir, const struct lab_arch *a,
		   const char *host, const char *guest)
{
	char names[64][256], lib[4096];
	size_t nnames = 0, i, k, n;
	Elf *e = NULL;
	int fd, ret = -1;
	Elf_Scn *scn = NULL;

	if (initramfs_has(ir, guest))
		return 0;
	if (initramfs_add_file(ir, guest, host, 0755))
		return -1;
	e = lab_elf_open(host, &fd);
	if (!e)
		return -1;
	if (elf_getphdrnum(e, &n)) {
		error("'%s' has no program headers: %s", host, elf_errmsg(-1));
		goto out;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		char *interp;
		size_t sz;

		if (!gelf_getphdr(e, i, &ph) || ph.p_type != PT_INTERP)
			continue;
		interp = elf_rawfile(e, &sz);
		if (!interp || ph.p_offset + ph.p_filesz > sz)
			break;
		snprintf(names[nnames++], sizeof(names[0]), "@%.*s",
			 (int)ph.p_filesz, interp + ph.p_offset);
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
			continue;
		d = elf_getdata(scn, NULL);
		for (k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
			const char *s;

			if (!gelf_getdyn(d, k, &dyn) || dyn.d_tag != DT_NEEDED)
				continue;
			s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (s && nnames < sizeof(names) / sizeof(names[0]))
				snprintf(names[nnames++], sizeof(names[0]), "%s", s);
		}
	}
	lab_elf_close(e, fd);
	e = NULL;
	fd = -1;
	for (i = 0; i < nnames; i++) {
		/* the interpreter is an absolute path, at the same place */
		if (names[i][0] == '@')
			snprintf(lib, sizeof(lib), "%s", names[i] + 1);
		else if (find_lib(a, names[i], lib, sizeof(lib)))
			goto out;
		if (add_elf(ir, a, lib, lib + 1))
			goto out;
	}
	ret = 0;
out:
	lab_elf_close(e, fd);
	return ret;
}

/* The NIC drivers' modules, in the order they load. */
static const char *const virtio_modules[] = {
	"drivers/virtio/virtio_ring", "drivers/virtio/virtio",
	"drivers/virtio/virtio_pci_legacy_dev",
	"drivers/virtio/virtio_pci_modern_dev", "drivers/virtio/virtio_pci",
	"net/core/failover", "drivers/net/net_failover",
	"drivers/net/virtio_net", NULL,
};
static const char *const vmxnet3_modules[] = {
	"drivers/net/vmxnet3/vmxnet3", NULL,
};

/* Module kernel/NAME.ko* under --modules DIR (DIR/kernel/..., as in
 * lib/modules/R, or DIR/lib/modules/R/kernel/..., an INSTALL_MOD_PATH,
 * or DIR/NAME.ko, a built kernel tree), else in the tree a .deb
 * unpacks beside boot/vmlinuz-R. */
static int find_module(const char *modules, const char *dir, const char *rel,
		       const char *name, char *out, size_t len)
{
	char path[4400];
	glob_t gl;
	int found = 0, i;

	static const char *const under[] = {
		"%s/kernel/%s.ko*", "%s/lib/modules/*/kernel/%s.ko*", "%s/%s.ko",
	};

	for (i = 0; i < (modules ? 3 : 1) && !found; i++) {
		if (modules)
			snprintf(path, sizeof(path), under[i], modules, name);
		else
			snprintf(path, sizeof(path), "%s/../lib/modules/%s/kernel/%s.ko*",
				 dir, rel, name);
		if (!glob(path, 0, NULL, &gl) && gl.gl_pathc) {
			snprintf(out, len, "%s", gl.gl_pathv[0]);
			found = 1;
		}
		globfree(&gl);
	}
	return found;
}

/* The NIC's modules as perpkt/modules/NN-NAME.ko[.xz]: /init loads them
 * in the order of their names. */
static int add_nic_modules(struct initramfs *ir, const struct lab_guest *g,
			   const char *dir, const char *rel)
{
	const char *const *m = strcmp(g->nic, "vmxnet3") ? virtio_modules :
			       vmxnet3_modules;
	char path[4400], guest[300];
	int i;

	for (i = 0; m[i]; i++) {
		const char *base = strrchr(m[i], '/') + 1;
		int xz;

		if (!find_module(g->modules, dir, rel, m[i], path, sizeof(path)))
			continue;
		xz = strlen(path) > 3 && !strcmp(path + strlen(path) - 3, ".xz");
		snprintf(guest, sizeof(guest), "perpkt/modules/%02d-%s.ko%s", i,
			 base, xz ? ".xz" : "");
		if (initramfs_add_file(ir, guest, path, 0644))
			return -1;
	}
	return 0;
}

/* From the tree a .deb unpacks beside boot/vmlinuz-R (or --modules):
 * the veth module, and boot/config-R (the profile's kernel.config
 * condition reads it in the guest). */
static int add_kernel_files(struct initramfs *ir, const struct lab_guest *g,
			    const char **module)
{
	char *copy = strdup(g->kernel), *dir, rel[256] = "*", path[4400];
	const char *base, *kernel = g->kernel;
	int ret = 0;

	*module = NULL;
	if (!copy)
		return error("out of memory");
	base = strrchr(kernel, '/') ? strrchr(kernel, '/') + 1 : kernel;
	if (!strncmp(base, "vmlinuz-", 8))
		snprintf(rel, sizeof(rel), "%s", base + 8);
	dir = dirname(copy);
	if (find_module(g->modules, dir, rel, "drivers/net/veth", path, sizeof(path))) {
		int xz = strlen(path) > 3 && !strcmp(path + strlen(path) - 3, ".xz");

		ret = initramfs_add_file(ir, xz ? "perpkt/modules/veth.ko.xz" :
					 "perpkt/modules/veth.ko", path, 0644);
		*module = xz ? "veth.ko.xz" : "veth.ko";
	}
	if (!ret && g->nic)
		ret = add_nic_modules(ir, g, dir, rel);
	snprintf(path, sizeof(path), "%s/config-%s", dir, rel);
	if (!ret && strcmp(rel, "*") && !access(path, R_OK)) {
		char guest[300];

		snprintf(guest, sizeof(guest), "boot/config-%s", rel);
		ret = initramfs_add_file(ir, guest, path, 0644);
	}
	free(copy);
	return ret;
}

/* perpkt/kallsyms.modules: the /proc/modules of the kallsyms the host
 * has, or "unknown"; always KNOWN_MODULES_SIZE bytes, padded with
 * newlines (the shell's $(cat) drops them), so that a boot with the
 * host's copy and one without unpack the same initramfs layout and
 * execute the same instructions before the window. */
#define KNOWN_MODULES_SIZE 16384
static int add_known_modules(struct initramfs *ir, const char *known)
{
	char *text = known ? procfile_read(known) : NULL, buf[KNOWN_MODULES_SIZE];
	size_t n;
	int ret;

	/* too many modules for the space: the guest sends its own */
	if (text && strlen(text) < sizeof(buf))
		snprintf(buf, sizeof(buf), "%s", text);
	else
		snprintf(buf, sizeof(buf), "unknown\n");
	free(text);
	n = strlen(buf);
	memset(buf + n, '\n', sizeof(buf) - n);
	ret = initramfs_add_data(ir, "perpkt/kallsyms.modules", buf, sizeof(buf), 0644);
	return ret;
}

int lab_guest_initramfs(const struct lab_guest *g, const char *path,
			const char **module)
{
	const struct lab_arch *a = g->arch;
	struct initramfs *ir;
	char env[256], busybox[4096];
	char *args = NULL;
	size_t len = 0, i;
	FILE *f;

	if (initramfs_create(&ir, path))
		return -1;
	f = open_memstream(&args, &len);
	if (!f)
		goto fail;
	for (i = 0; i < g->nargs; i++) {
		if (strchr(g->args[i], '\n')) {
			fclose(f);
			error("argument '%s' has a newline: the guest cannot take it",
			      g->args[i]);
			goto fail;
		}
		fprintf(f, "%s\n", g->args[i]);
	}
	fclose(f);
	snprintf(env, sizeof(env), "PORT=%s\nEXACT=%s\nNIC=%s\nADDR=%s\nBIND=%s\n"
		 "RPS=%s\nIRQ=%s\nLATE_CPUS=%s\nBUSY=%s\n", a->data_port,
		 g->exact ? "1" : "", g->nic ? g->nic : "", g->addr ? g->addr : "",
		 g->serve_bind ? g->serve_bind : "", g->rps_cpus ? g->rps_cpus : "",
		 g->irq_cpu ? g->irq_cpu : "", g->late_cpus ? "1" : "",
		 g->busy ? g->busy : "");
	if (lab_arch_path(a->busybox, busybox, sizeof(busybox)) ||
	    access(busybox, R_OK)) {
		error("no static busybox for the %s guest at '%s': run tests/lab/fetch-guest.sh %s (it unpacks busybox-static:%s there)",
		      a->name, busybox, a->name,
		      strcmp(a->name, "aarch64") ? a->name : "arm64");
		goto fail;
	}
	if (initramfs_add_file(ir, "bin/busybox", busybox, 0755) ||
	    initramfs_add_data(ir, "init", init_script, strlen(init_script), 0755) ||
	    initramfs_add_data(ir, "perpkt/env", env, strlen(env), 0644) ||
	    initramfs_add_data(ir, "perpkt/args", args, len, 0644) ||
	    add_elf(ir, a, g->perpkt, "usr/bin/perpkt") ||
	    (a->ip && add_elf(ir, a, a->ip, "usr/sbin/ip")) ||
	    (g->key && initramfs_add_data(ir, LAB_GUEST_KEY + 1, g->key,
					  strlen(g->key), 0600)) ||
	    (g->exact && add_known_modules(ir, g->known_modules)) ||
	    add_kernel_files(ir, g, module))
		goto fail;
	free(args);
	return initramfs_finish(ir);
fail:
	free(args);
	initramfs_abort(ir);
	return -1;
}
