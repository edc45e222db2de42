package io.github.redisdelaybridge.testkit;

import java.nio.charset.StandardCharsets;

/** Text to bytes and back, as the bridge encodes ids, header values and bodies given as text (UTF-8). */
public final class Utf8 {

    private Utf8() {
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
