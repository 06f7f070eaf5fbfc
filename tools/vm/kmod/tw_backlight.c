// SPDX-License-Identifier: GPL-2.0
/*
 * touchwire test fixture: a backlight class device, /sys/class/backlight/tw-backlight, as a
 * DSI or SPI panel's driver registers one (the official Pi displays: rpi_backlight, 10-0045).
 *
 * max_brightness 255, brightness 200 at load, bl_power 0 (FB_BLANK_UNBLANK). The class's own
 * files do the rest: writes to brightness and bl_power land in props and call update_status,
 * which logs the new state ("tw-backlight: brightness B power P") so the console shows every
 * switch touchwire made, in order.
 */
#include <linux/module.h>
#include <linux/backlight.h>
#include <linux/err.h>

static struct backlight_device *bl;

static int tw_bl_update_status(struct backlight_device *b)
{
	pr_info("tw-backlight: brightness %d power %d\n", b->props.brightness, b->props.power);
	return 0;
}

static const struct backlight_ops tw_bl_ops = {
	.update_status = tw_bl_update_status,
};

static int __init tw_bl_init(void)
{
	struct backlight_properties props = {
		.type = BACKLIGHT_RAW,
		.max_brightness = 255,
		.brightness = 200,
		.power = FB_BLANK_UNBLANK,
	};

	bl = backlight_device_register("tw-backlight", NULL, NULL, &tw_bl_ops, &props);
	return PTR_ERR_OR_ZERO(bl);
}

static void __exit tw_bl_exit(void)
{
	backlight_device_unregister(bl);
}

module_init(tw_bl_init);
module_exit(tw_bl_exit);
MODULE_DESCRIPTION("touchwire test fixture: a backlight class device");
MODULE_LICENSE("GPL");
