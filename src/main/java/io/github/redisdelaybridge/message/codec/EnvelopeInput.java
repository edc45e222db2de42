package io.github.redisdelaybridge.message.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads an encoded envelope front to back. Every read is checked against the bytes left, so a damaged
 * record fails with an {@link IllegalArgumentException} that says what was wrong, never with an index error
 * or an allocation sized by a corrupt length.
 */
final class EnvelopeInput {

    private final byte[] bytes;
    private int position;

    EnvelopeInput(byte[] bytes, int position) {
        this.bytes = bytes;
        this.position = position;
    }

    int remaining() {
        return bytes.length - position;
    }

    int unsignedByte() {
        if (position >= bytes.length) {
            throw corrupt("it ends early, at byte " + position);
        }
        return bytes[position++] & 0xFF;
    }

    /** An unsigned LEB128 varint of at most 63 bits: 7 bits a byte, low group first, high bit = more follows. */
    long varint() {
        long value = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            int b = unsignedByte();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw corrupt("a varint exceeds 63 bits");
    }

    /** A length or count: a varint that cannot exceed the bytes left (each counted item takes at least one). */
    int length() {
        long length = varint();
        if (length > remaining()) {
            throw corrupt("length " + length + " exceeds the remaining " + remaining() + " bytes");
        }
        return (int) length;
    }

    /** A varint length plus one, 0 meaning null. */
    byte[] nullableBytes() {
        long lengthPlusOne = varint();
        if (lengthPlusOne == 0) {
            return null;
        }
        if (lengthPlusOne - 1 > remaining()) {
            throw corrupt("length " + (lengthPlusOne - 1) + " exceeds the remaining " + remaining() + " bytes");
        }
        return bytes((int) (lengthPlusOne - 1));
    }

    /** A varint length, then that many bytes. */
    byte[] lengthPrefixedBytes() {
        return bytes(length());
    }

    String text() {
        return new String(lengthPrefixedBytes(), StandardCharsets.UTF_8);
    }

    /** Everything not read yet. */
    byte[] rest() {
        return bytes(remaining());
    }

    private byte[] bytes(int length) {
        byte[] read = Arrays.copyOfRange(bytes, position, position + length);
        position += length;
        return read;
    }

    static IllegalArgumentException corrupt(String what) {
        return new IllegalArgumentException("corrupt envelope: " + what);
    }
}
