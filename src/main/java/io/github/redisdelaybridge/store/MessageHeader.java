package io.github.redisdelaybridge.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** One message header as it arrived: a name and raw value bytes (null when the broker sent none). */
public record MessageHeader(String name, byte[] value) {

    public static MessageHeader text(String name, String value) {
        return new MessageHeader(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MessageHeader h && name.equals(h.name) && Arrays.equals(value, h.value);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return name + "=" + (value == null ? "null" : value.length + " bytes");
    }
}
