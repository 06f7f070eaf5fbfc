/* The board glue of the firmware example (docs/mcu.md): output, the end, and a tick counter.
 *
 * Output goes through picolibc's semihosting write (QEMU prints it on its stdout); on a device,
 * tw_write would feed a UART. tw_mark reads the CMSDK APB timer 0 of the MPS2 boards (25 MHz):
 * under QEMU's -icount shift=0 one instruction is one nanosecond of virtual time, so a tick is
 * 40 instructions, and the ticks between the two marks give the instructions of the frames. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TIMER0 ((volatile uint32_t *)0x40000000u)  /* CTRL, VALUE, RELOAD, INTSTATUS */

static uint32_t marks[2];

/* Embedded Swift for armv7em uses the Cortex-M4's single-precision FPU (register spills, Float):
 * it must be enabled (CPACR: full access to CP10 and CP11) before any Swift code runs. Doubles are
 * computed in software (__aeabi_d*), as the M4 has no double-precision unit. */
__attribute__((constructor(101))) static void enable_fpu(void) {
    volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88u;
    *cpacr |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

void tw_write(const uint8_t *bytes, int32_t count) {
    if (fwrite(bytes, 1, (size_t)count, stdout) != (size_t)count) exit(3);
}

void tw_mark(int32_t what) {
    if (what == 0) {
        TIMER0[2] = 0xFFFFFFFFu;  /* RELOAD */
        TIMER0[1] = 0xFFFFFFFFu;  /* VALUE */
        TIMER0[0] = 1;            /* CTRL: enable */
    }
    marks[what & 1] = TIMER0[1];
}

uint32_t tw_ticks(void) { return marks[0] - marks[1]; }

/* The costliest frame (with the timers it fires): on a board with strokes, a lift, when the
 * stroke is compared with every built-in template (docs/mcu.md, "Limits"). */
static uint32_t frame_start, worst_ticks;
static int32_t worst_frame = -1;

void tw_frame_begin(void) { frame_start = TIMER0[1]; }

void tw_frame_end(int32_t frame) {
    uint32_t ticks = frame_start - TIMER0[1];
    if (worst_frame < 0 || ticks > worst_ticks) {
        worst_ticks = ticks;
        worst_frame = frame;
    }
}

/* The measurement, on the console after the events, marked `firmware:` (mcu/run separates the
 * two): frames, instructions per frame, and the heap's high-water mark (picolibc's malloc takes
 * its memory with sbrk from the fixed heap between the end of .bss and the stack). */
extern char __heap_start[], __heap_end[];

void tw_report(int32_t frames) {
    uint32_t ticks = tw_ticks();
    char *top = sbrk(0);
    printf("firmware: %ld frames, %lu ticks of 40 ns, %lu instructions per frame (-icount shift=0)\n",
           (long)frames, (unsigned long)ticks,
           (unsigned long)(frames > 0 ? (uint64_t)ticks * 40u / (uint32_t)frames : 0));
    printf("firmware: worst frame %ld, %lu instructions\n", (long)worst_frame,
           (unsigned long)((uint64_t)worst_ticks * 40u));
    printf("firmware: heap %lu of %lu bytes used\n", (unsigned long)(top - __heap_start),
           (unsigned long)(__heap_end - __heap_start));
}

/* The Swift runtime's fatal errors (a precondition failing) end up here. */
void abort(void) {
    fputs("firmware: abort\n", stderr);
    _exit(134);
}

/* Double(String) in Embedded Swift (the stroke template text is parsed with it) calls this
 * runtime hook, which the Embedded stdlib leaves to the platform: picolibc's strtod, correctly
 * rounded as the host's. Returns where the number ended. */
const char *_swift_stdlib_strtod_clocale(const char *nptr, double *out) {
    char *end;
    *out = strtod(nptr, &end);
    return end;
}
