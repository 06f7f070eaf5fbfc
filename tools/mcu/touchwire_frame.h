/* touchwire_frame.h — decode touchwire binary frames (docs/PROTOCOL.md, version 1) on a
 * microcontroller. Single header, C99, no allocation, no libc beyond <stdint.h>/<stddef.h>.
 *
 *   static tw_decoder dec;
 *   tw_decoder_init(&dec);
 *   for each byte b from the UART:
 *       if (tw_decoder_feed(&dec, b)) {              // a whole frame with a good CRC
 *           tw_event ev;
 *           if (tw_event_parse(&dec.frame, &ev)) { ... ev.state == TW_STATE_RECOGNIZED ... }
 *       }
 *
 * Frame: A5 5A | version | type | seq lo | seq hi | length | payload[length] | crc lo | crc hi
 * CRC-16/CCITT-FALSE over version .. last payload byte. A corrupt or foreign frame is skipped
 * and the decoder resynchronises on the next A5 5A, re-scanning the bytes it had buffered.
 */
#ifndef TOUCHWIRE_FRAME_H
#define TOUCHWIRE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define TW_SYNC0 0xA5u
#define TW_SYNC1 0x5Au
#define TW_VERSION 1u
#define TW_TYPE_EVENT 0x01u
/* The longest payload accepted; longer frames are skipped. Events need at most 67 bytes, so an
 * MCU may define TW_MAX_PAYLOAD 67 before including this header to save RAM and stack. */
#ifndef TW_MAX_PAYLOAD
#define TW_MAX_PAYLOAD 255u
#endif
#define TW_HEADER_LEN 7u

/* kinds (payload byte 4) */
enum { TW_KIND_TAP = 0, TW_KIND_LONG_PRESS = 1, TW_KIND_PAN = 2, TW_KIND_SWIPE = 3, TW_KIND_PINCH = 4,
       TW_KIND_ROTATION = 5, TW_KIND_CHECKMARK = 6, TW_KIND_CONTROL = 7, TW_KIND_CUSTOM = 8,
       TW_KIND_STROKE = 9 };
/* states (payload byte 5) */
enum { TW_STATE_BEGAN = 1, TW_STATE_CHANGED = 2, TW_STATE_ENDED = 3, TW_STATE_CANCELLED = 4,
       TW_STATE_RECOGNIZED = 6 };
/* swipe directions (payload byte 9 for swipes) */
enum { TW_DIR_RIGHT = 1, TW_DIR_LEFT = 2, TW_DIR_UP = 4, TW_DIR_DOWN = 8 };

/* One frame whose CRC checked out. */
typedef struct {
    uint8_t version;
    uint8_t type;
    uint16_t sequence;
    uint8_t length;
    uint8_t payload[TW_MAX_PAYLOAD];
} tw_frame;

/* A decoded event (type TW_TYPE_EVENT). Fixed-point: positions ×100 px, pan values ×100
 * (px, px/s), pinch scale and rotation radians (and their velocities) ×10000. */
typedef struct {
    uint32_t time_us;    /* low 32 bits of the event's t_us */
    uint8_t kind, state, recognizer, region, touches;
    uint8_t taps;        /* tap: number of taps */
    uint8_t direction;   /* swipe: TW_DIR_* */
    uint8_t stroke;      /* stroke: index of the template name (order of first appearance in the file) */
    int32_t x, y;        /* ×100 px */
    int32_t translation_x, translation_y, velocity_x, velocity_y; /* pan, ×100 */
    int32_t value, value_velocity; /* pinch scale / rotation rad, and per second; stroke score; ×10000 */
    uint8_t name_length;
    char name[33];       /* the recognizer's board-file name, NUL-terminated */
} tw_event;

typedef struct {
    uint8_t buf[TW_HEADER_LEN + TW_MAX_PAYLOAD + 2];
    uint16_t have;       /* bytes of the current candidate frame in buf */
    tw_frame frame;      /* valid after tw_decoder_feed returned 1 */
    uint32_t frames;     /* good frames */
    uint32_t crc_errors; /* candidates rejected by CRC */
    uint32_t skipped;    /* bytes discarded while hunting for sync */
    uint32_t bad_version;/* well-formed frames of another version, skipped */
} tw_decoder;

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF; tw_crc16("123456789", 9) == 0x29B1. */
static inline uint16_t tw_crc16(const uint8_t *p, size_t n) {
    uint16_t crc = 0xFFFFu;
    while (n--) {
        crc ^= (uint16_t)(*p++) << 8;
        for (int i = 0; i < 8; i++) crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

static inline void tw_decoder_init(tw_decoder *d) {
    d->have = 0;
    d->frames = d->crc_errors = d->skipped = d->bad_version = 0;
}

static inline int tw__feed(tw_decoder *d, uint8_t b);

/* Drops the first buffered byte and re-feeds the rest (they may hold the real frame start). */
static inline int tw__resync(tw_decoder *d) {
    uint8_t rest[sizeof d->buf];
    uint16_t n = d->have > 0 ? (uint16_t)(d->have - 1) : 0;
    for (uint16_t i = 0; i < n; i++) rest[i] = d->buf[i + 1];
    d->have = 0;
    d->skipped++;
    int got = 0;
    for (uint16_t i = 0; i < n; i++) got |= tw__feed(d, rest[i]);
    return got;
}

static inline int tw__feed(tw_decoder *d, uint8_t b) {
    if (d->have == 0) {
        if (b == TW_SYNC0) d->buf[d->have++] = b; else d->skipped++;
        return 0;
    }
    if (d->have == 1) {
        if (b == TW_SYNC1) { d->buf[d->have++] = b; return 0; }
        d->have = 0;
        d->skipped++;
        return tw__feed(d, b);
    }
    d->buf[d->have++] = b;
    if (d->have < TW_HEADER_LEN) return 0;
#if TW_MAX_PAYLOAD < 255
    if (d->buf[6] > TW_MAX_PAYLOAD) { d->crc_errors++; return tw__resync(d); }
#endif
    uint16_t total = (uint16_t)(TW_HEADER_LEN + d->buf[6] + 2);
    if (d->have < total) return 0;
    uint16_t crc = (uint16_t)(d->buf[total - 2] | (d->buf[total - 1] << 8));
    if (tw_crc16(d->buf + 2, (size_t)(total - 4)) != crc) {
        d->crc_errors++;
        return tw__resync(d);
    }
    d->have = 0;
    if (d->buf[2] != TW_VERSION) { d->bad_version++; return 0; }
    d->frame.version = d->buf[2];
    d->frame.type = d->buf[3];
    d->frame.sequence = (uint16_t)(d->buf[4] | (d->buf[5] << 8));
    d->frame.length = d->buf[6];
    for (uint16_t i = 0; i < d->frame.length; i++) d->frame.payload[i] = d->buf[TW_HEADER_LEN + i];
    d->frames++;
    return 1;
}

/* Feeds one received byte. Returns 1 when d->frame holds a new valid frame (copy it before the
 * next call), 0 otherwise. Never blocks, never allocates. If a corrupt candidate hides a frame
 * start and that frame completes during the re-scan, it is returned by this call. */
static inline int tw_decoder_feed(tw_decoder *d, uint8_t b) { return tw__feed(d, b); }

static inline int32_t tw__i32(const uint8_t *p) {
    return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24));
}

/* Parses an event frame. Returns 1 on success, 0 when the frame is not an event or too short. */
static inline int tw_event_parse(const tw_frame *f, tw_event *e) {
    if (f->type != TW_TYPE_EVENT || f->length < 35) return 0;
    const uint8_t *p = f->payload;
    e->time_us = (uint32_t)tw__i32(p);
    e->kind = p[4]; e->state = p[5]; e->recognizer = p[6]; e->region = p[7]; e->touches = p[8];
    e->taps = e->kind == TW_KIND_TAP ? p[9] : 0;
    e->direction = e->kind == TW_KIND_SWIPE ? p[9] : 0;
    e->stroke = e->kind == TW_KIND_STROKE ? p[9] : 0;
    e->x = tw__i32(p + 10);
    e->y = tw__i32(p + 14);
    int pan = e->kind == TW_KIND_PAN, scalar = e->kind == TW_KIND_PINCH || e->kind == TW_KIND_ROTATION
        || e->kind == TW_KIND_STROKE;
    e->translation_x = pan ? tw__i32(p + 18) : 0;
    e->translation_y = pan ? tw__i32(p + 22) : 0;
    e->velocity_x = pan ? tw__i32(p + 26) : 0;
    e->velocity_y = pan ? tw__i32(p + 30) : 0;
    e->value = scalar ? tw__i32(p + 18) : 0;
    e->value_velocity = scalar ? tw__i32(p + 22) : 0;
    uint8_t n = p[34];
    if (n > 32 || 35u + n > f->length) return 0;
    for (uint8_t i = 0; i < n; i++) e->name[i] = (char)p[35 + i];
    e->name[n] = 0;
    e->name_length = n;
    return 1;
}

#endif /* TOUCHWIRE_FRAME_H */
