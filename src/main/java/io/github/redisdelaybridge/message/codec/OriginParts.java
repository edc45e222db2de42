package io.github.redisdelaybridge.message.codec;

/**
 * An origin split in two for storage: the stem that many messages share, and the decimal number that
 * ends it, if any. A Kafka origin {@code kafka:delay.inbound/0@42} is stem {@code kafka:delay.inbound/0@}
 * and number 42 (the offset). Redis interns the stem per slot (one small code per payload instead of the
 * text) and keeps the number in the payload: interning the whole origin would add a name per message,
 * since every offset differs.
 *
 * <p>The split always joins back to the same text: the number is the longest run of trailing ASCII digits
 * without a leading zero (a lone "0" is a number; other zeros in front of it stay in the stem), and only a
 * run of at most 18 digits is a number (it fits a long). {@code rabbitmq:orders} has no number.
 *
 * @param stem   the origin without its trailing number
 * @param number the trailing number, or null when the origin has none
 */
record OriginParts(String stem, Long number) {

    private static final int MAX_DIGITS = 18;

    static OriginParts of(String origin) {
        int end = origin.length();
        int start = end;
        while (start > 0 && isAsciiDigit(origin.charAt(start - 1))) {
            start--;
        }
        while (start < end - 1 && origin.charAt(start) == '0') {
            start++;
        }
        if (start == end || end - start > MAX_DIGITS) {
            return new OriginParts(origin, null);
        }
        return new OriginParts(origin.substring(0, start), Long.parseLong(origin.substring(start)));
    }

    String joined() {
        return number == null ? stem : stem + number;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
