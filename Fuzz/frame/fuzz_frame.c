/* libFuzzer target for tools/mcu/touchwire_frame.h (the MCU decoder of docs/PROTOCOL.md frames):
 * any byte stream, fed byte by byte, never reads or writes out of bounds (AddressSanitizer,
 * UndefinedBehaviorSanitizer), and every frame it reports parses or is refused cleanly.
 * Built with TW_MAX_PAYLOAD 67, the RAM-saving setting, so oversized frames are exercised. */
#define TW_MAX_PAYLOAD 67u
#include "../../tools/mcu/touchwire_frame.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tw_decoder dec;
    tw_decoder_init(&dec);
    for (size_t i = 0; i < size; i++) {
        if (tw_decoder_feed(&dec, data[i])) {
            if (dec.frame.length > TW_MAX_PAYLOAD) abort();
            tw_event ev;
            if (tw_event_parse(&dec.frame, &ev) && (ev.name_length > 32 || ev.name[ev.name_length] != 0)) abort();
        }
    }
    return 0;
}
