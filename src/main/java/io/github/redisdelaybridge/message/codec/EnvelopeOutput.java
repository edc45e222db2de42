package io.github.redisdelaybridge.message.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Writes the parts of an envelope: single bytes, unsigned LEB128 varints, length-prefixed bytes and text. */
final class EnvelopeOutput {

    private final ByteArrayOutputStream buffer;

    EnvelopeOutput(int expectedSize) {
        this.buffer = new ByteArrayOutputStream(expectedSize);
    }

    void writeByte(int value) {
        buffer.write(value);
    }

    /** 7 bits a byte, low group first, high bit set on every byte but the last; {@code value} is never negative. */
    void writeVarint(long value) {
        while ((value & ~0x7FL) != 0) {
            buffer.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer.write((int) value);
    }

    void writeLengthPrefixed(byte[] bytes) {
        writeVarint(bytes.length);
        buffer.writeBytes(bytes);
    }

    /** Length plus one, so that 0 can mean null. */
    void writeNullable(byte[] bytes) {
        if (bytes == null) {
            writeVarint(0);
        } else {
            writeVarint(bytes.length + 1L);
            buffer.writeBytes(bytes);
        }
    }

    void writeText(String text) {
        writeLengthPrefixed(text.getBytes(StandardCharsets.UTF_8));
    }

    void writeRaw(byte[] bytes) {
        buffer.writeBytes(bytes);
    }

    byte[] toByteArray() {
        return buffer.toByteArray();
    }
}
