package io.github.redisdelaybridge.message.codec;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Binary, versioned encoding of a {@link DeadLetter} kept in Redis's dead-letter store:
 * <pre>
 *   int8  magic 0xDE
 *   int8  version (1)
 *   UTF   reason code
 *   UTF   detail (at most 16 KiB kept)
 *   int32 attempts
 *   int32 length, then the message as an envelope (EnvelopeCodec; target "" when it had none)
 * </pre>
 * The message id is not in the record (the envelope carries none): it is the dead-letter hash field the record is
 * stored under, and the reader is given it. The envelope is in its wire form (dead letters are not interned). Format
 * specification: docs/storage-formats.md.
 */
public final class DeadLetterCodec {

    static final int MAGIC = 0xDE;
    static final int VERSION = 1;
    private static final int MAX_DETAIL_CHARS = 16 * 1024;

    private DeadLetterCodec() {
    }

    public static byte[] encode(DeadLetter deadLetter) {
        byte[] envelope = EnvelopeCodec.encode(new Envelope(deadLetter.messageId(), deadLetter.target(), deadLetter.origin(),
                deadLetter.key(), deadLetter.headers(), deadLetter.properties(), deadLetter.body()));
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(envelope.length + 256);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeByte(MAGIC);
            out.writeByte(VERSION);
            out.writeUTF(deadLetter.reason().code());
            String detail = deadLetter.detail();
            out.writeUTF(detail.length() > MAX_DETAIL_CHARS ? detail.substring(0, MAX_DETAIL_CHARS) : detail);
            out.writeInt(deadLetter.attempts());
            out.writeInt(envelope.length);
            out.write(envelope);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    /** @param messageId the id the record is stored under (dead-letter hash field) */
    public static DeadLetter decode(String messageId, byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            if (in.readUnsignedByte() != MAGIC) {
                throw new IllegalArgumentException("not a dead-letter record");
            }
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unsupported dead-letter record version " + version);
            }
            DeadLetterReason reason = DeadLetterReason.fromCode(in.readUTF());
            String detail = in.readUTF();
            int attempts = in.readInt();
            int length = in.readInt();
            if (length < 0 || length != in.available()) {
                throw new IllegalArgumentException("corrupt dead-letter record: envelope length " + length);
            }
            Envelope envelope = EnvelopeCodec.decode(messageId, in.readNBytes(length));
            return new DeadLetter(envelope.messageId(), reason, detail, envelope.origin(), envelope.target(), attempts,
                    envelope.key(), envelope.headers(), envelope.properties(), envelope.body());
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt dead-letter record: " + e.getMessage(), e);
        }
    }
}
