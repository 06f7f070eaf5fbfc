/* Host test of touchwire_frame.h: decodes a byte stream (a file, or stdin) and prints one line per
 * event, then the decoder's counters. Built and run by the Swift test suite
 * (Tests/TouchOutputsTests/CFrameDecoderTests.swift). */
#include <stdio.h>
#include "touchwire_frame.h"

int main(int argc, char **argv) {
    FILE *in = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!in) { perror("open"); return 2; }
    if (tw_crc16((const uint8_t *)"123456789", 9) != 0x29B1u) { puts("crc self-test failed"); return 3; }
    static tw_decoder dec;
    tw_decoder_init(&dec);
    int c;
    while ((c = fgetc(in)) != EOF) {
        if (!tw_decoder_feed(&dec, (uint8_t)c)) continue;
        tw_event e;
        if (!tw_event_parse(&dec.frame, &e)) { printf("frame seq=%u type=%u (not an event)\n", dec.frame.sequence, dec.frame.type); continue; }
        printf("seq=%u t=%lu name=%s rec=%u region=%u kind=%u state=%u touches=%u taps=%u dir=%u x=%ld y=%ld "
               "tx=%ld ty=%ld vx=%ld vy=%ld value=%ld vv=%ld\n",
               dec.frame.sequence, (unsigned long)e.time_us, e.name, e.recognizer, e.region, e.kind, e.state,
               e.touches, e.taps, e.direction, (long)e.x, (long)e.y, (long)e.translation_x, (long)e.translation_y,
               (long)e.velocity_x, (long)e.velocity_y, (long)e.value, (long)e.value_velocity);
    }
    printf("frames=%lu crc_errors=%lu bad_version=%lu\n", (unsigned long)dec.frames, (unsigned long)dec.crc_errors,
           (unsigned long)dec.bad_version);
    return 0;
}
