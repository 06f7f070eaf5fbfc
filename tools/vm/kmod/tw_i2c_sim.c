// SPDX-License-Identifier: GPL-2.0
/*
 * touchwire test fixture: an I2C adapter whose devices are plain register files.
 *
 * Unlike i2c-stub (SMBus only) it implements master_xfer, so /dev/i2c-N answers I2C_RDWR
 * with any number of messages, and a device may use 8- or 16-bit (big-endian) register
 * addresses (GT911). A write message sets the register pointer from its first 1 or 2 bytes
 * and stores the rest with auto-increment; a read message reads from the pointer with
 * auto-increment. An address with no device, or a device marked "nack", fails the whole
 * transfer with -ENXIO, as a bus driver does on an address NACK.
 *
 * Control from user space: /sys/kernel/debug/tw-i2c-sim/ctl, one command per write
 * (numbers in C notation: 0x38, 56):
 *   add ADDR BITS            a device at ADDR with 8- or 16-bit register addresses (zeroed)
 *   del ADDR                 remove it
 *   nack ADDR 0|1            make it stop/start answering
 *   move ADDR NEWADDR        change its address (GT911 address latched at reset)
 *   set ADDR REG B0 [B1...]  write registers
 *   peek ADDR REG N          remember N registers for the next read of ctl
 * Reading ctl prints one line per device (address, bits, nack, transfers) and the last peek.
 */
#include <linux/module.h>
#include <linux/i2c.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/string.h>

#define TW_MAX_DEVS 8
#define TW_MAX_PEEK 64

struct tw_dev {
	bool used;
	bool nack;
	u16 addr;
	u8 regbits;
	u32 size;
	u32 ptr;
	u8 *regs;
	unsigned long transfers;
};

static struct tw_dev tw_devs[TW_MAX_DEVS];
static DEFINE_MUTEX(tw_lock);
static struct i2c_adapter tw_adapter;
static struct dentry *tw_dir;
static u8 tw_peek[TW_MAX_PEEK];
static u32 tw_peek_len, tw_peek_addr, tw_peek_reg;

static struct tw_dev *tw_find(u16 addr)
{
	int i;

	for (i = 0; i < TW_MAX_DEVS; i++)
		if (tw_devs[i].used && tw_devs[i].addr == addr)
			return &tw_devs[i];
	return NULL;
}

static int tw_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	int i, ret = num;
	u32 j;

	mutex_lock(&tw_lock);
	for (i = 0; i < num; i++) {
		struct i2c_msg *m = &msgs[i];
		struct tw_dev *d = tw_find(m->addr);

		if (!d || d->nack || (m->flags & I2C_M_TEN)) {
			ret = -ENXIO;
			break;
		}
		d->transfers++;
		if (m->flags & I2C_M_RD) {
			for (j = 0; j < m->len; j++) {
				m->buf[j] = d->regs[d->ptr];
				d->ptr = (d->ptr + 1) % d->size;
			}
		} else {
			u32 rb = d->regbits / 8;

			j = 0;
			if (m->len >= rb) {
				d->ptr = rb == 2 ? ((u32)m->buf[0] << 8 | m->buf[1]) : m->buf[0];
				j = rb;
			}
			for (; j < m->len; j++) {
				d->regs[d->ptr] = m->buf[j];
				d->ptr = (d->ptr + 1) % d->size;
			}
		}
	}
	mutex_unlock(&tw_lock);
	return ret;
}

static u32 tw_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm tw_algo = {
	.master_xfer = tw_xfer,
	.functionality = tw_func,
};

static int tw_command(char *line)
{
	char *argv[TW_MAX_PEEK + 4];
	u32 v[TW_MAX_PEEK + 4];
	int argc = 0, i;
	char *tok;
	struct tw_dev *d;

	while ((tok = strsep(&line, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (argc == ARRAY_SIZE(argv))
			return -E2BIG;
		argv[argc++] = tok;
	}
	if (argc < 2)
		return -EINVAL;
	for (i = 1; i < argc; i++)
		if (kstrtou32(argv[i], 0, &v[i]))
			return -EINVAL;
	if (v[1] > 0x7f)
		return -EINVAL;
	d = tw_find(v[1]);

	if (!strcmp(argv[0], "add") && argc == 3) {
		if (d || (v[2] != 8 && v[2] != 16))
			return -EINVAL;
		for (i = 0; i < TW_MAX_DEVS && tw_devs[i].used; i++)
			;
		if (i == TW_MAX_DEVS)
			return -ENOSPC;
		d = &tw_devs[i];
		d->size = v[2] == 16 ? 65536 : 256;
		d->regs = vzalloc(d->size);
		if (!d->regs)
			return -ENOMEM;
		d->addr = v[1];
		d->regbits = v[2];
		d->nack = false;
		d->ptr = 0;
		d->transfers = 0;
		d->used = true;
		return 0;
	}
	if (!d)
		return -ENODEV;
	if (!strcmp(argv[0], "del") && argc == 2) {
		vfree(d->regs);
		memset(d, 0, sizeof(*d));
		return 0;
	}
	if (!strcmp(argv[0], "nack") && argc == 3) {
		d->nack = v[2] != 0;
		return 0;
	}
	if (!strcmp(argv[0], "move") && argc == 3) {
		if (v[2] > 0x7f || (tw_find(v[2]) && v[2] != v[1]))
			return -EBUSY;
		d->addr = v[2];
		return 0;
	}
	if (!strcmp(argv[0], "set") && argc >= 4) {
		if (v[2] >= d->size)
			return -EINVAL;
		for (i = 3; i < argc; i++)
			d->regs[(v[2] + i - 3) % d->size] = v[i];
		return 0;
	}
	if (!strcmp(argv[0], "peek") && argc == 4) {
		if (v[2] >= d->size || v[3] > TW_MAX_PEEK)
			return -EINVAL;
		for (i = 0; i < v[3]; i++)
			tw_peek[i] = d->regs[(v[2] + i) % d->size];
		tw_peek_len = v[3];
		tw_peek_addr = v[1];
		tw_peek_reg = v[2];
		return 0;
	}
	return -EINVAL;
}

static ssize_t tw_ctl_write(struct file *f, const char __user *ubuf, size_t len, loff_t *pos)
{
	char *buf;
	int ret;

	if (len > 1024)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&tw_lock);
	ret = tw_command(buf);
	mutex_unlock(&tw_lock);
	kfree(buf);
	return ret ? ret : len;
}

static ssize_t tw_ctl_read(struct file *f, char __user *ubuf, size_t len, loff_t *pos)
{
	char *buf;
	size_t n = 0, size = 2048;
	ssize_t ret;
	u32 i;

	buf = kzalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&tw_lock);
	for (i = 0; i < TW_MAX_DEVS; i++) {
		struct tw_dev *d = &tw_devs[i];

		if (d->used)
			n += scnprintf(buf + n, size - n, "0x%02x bits=%u nack=%d transfers=%lu\n",
				       d->addr, d->regbits, d->nack, d->transfers);
	}
	if (tw_peek_len) {
		n += scnprintf(buf + n, size - n, "peek 0x%02x 0x%x:", tw_peek_addr, tw_peek_reg);
		for (i = 0; i < tw_peek_len; i++)
			n += scnprintf(buf + n, size - n, " %02x", tw_peek[i]);
		n += scnprintf(buf + n, size - n, "\n");
	}
	mutex_unlock(&tw_lock);
	ret = simple_read_from_buffer(ubuf, len, pos, buf, n);
	kfree(buf);
	return ret;
}

static const struct file_operations tw_ctl_fops = {
	.owner = THIS_MODULE,
	.read = tw_ctl_read,
	.write = tw_ctl_write,
	.llseek = default_llseek,
};

static int __init tw_init(void)
{
	int ret;

	tw_adapter.owner = THIS_MODULE;
	tw_adapter.algo = &tw_algo;
	strscpy(tw_adapter.name, "touchwire-i2c-sim", sizeof(tw_adapter.name));
	ret = i2c_add_adapter(&tw_adapter);
	if (ret)
		return ret;
	tw_dir = debugfs_create_dir("tw-i2c-sim", NULL);
	debugfs_create_file("ctl", 0600, tw_dir, NULL, &tw_ctl_fops);
	return 0;
}

static void __exit tw_exit(void)
{
	int i;

	debugfs_remove_recursive(tw_dir);
	i2c_del_adapter(&tw_adapter);
	for (i = 0; i < TW_MAX_DEVS; i++)
		vfree(tw_devs[i].regs);
}

module_init(tw_init);
module_exit(tw_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("touchwire test fixture: I2C adapter with register-file devices (I2C_RDWR, 8/16-bit registers)");
