package io.github.redisdelaybridge.store.script;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * An array reply of a script, read by the names its header gives the fields ({@code Returns: { now, nextDue, id1,
 * member1, id2, ... }}): a head of fields, then entries of equal fields (one per message or record), then, for
 * schedule.lua, a tail. The names are enums in the header's order, declared next to the script's contract; this class
 * is the only place that turns a name into a position. A nil in the reply (Lua's false) reads as null.
 *
 * @param <H> the head's fields
 * @param <E> the fields of each entry
 */
public final class Reply<H extends Enum<H>, E extends Enum<E>> {

    /** No fields: the head or the entries of a reply that has none. */
    public enum None {
    }

    /** The fields of a script's array reply, in its header's order. */
    public static final class Shape<H extends Enum<H>, E extends Enum<E>> {

        private final Class<H> head;
        private final Class<E> entry;
        private final Class<? extends Enum<?>> tail;
        private final int headSize;
        private final int entrySize;
        private final int tailSize;

        private Shape(Class<H> head, Class<E> entry, Class<? extends Enum<?>> tail) {
            this.head = head;
            this.entry = entry;
            this.tail = tail;
            this.headSize = head.getEnumConstants().length;
            this.entrySize = entry.getEnumConstants().length;
            this.tailSize = tail.getEnumConstants().length;
        }

        @SuppressWarnings("unchecked")
        public Reply<H, E> read(Object reply) {
            return new Reply<>(this, (List<Object>) reply);
        }

        /** The head's fields, in order (for the check against the script's header). */
        public List<? extends Enum<?>> headFields() {
            return List.of(head.getEnumConstants());
        }

        public List<? extends Enum<?>> entryFields() {
            return List.of(entry.getEnumConstants());
        }

        public List<? extends Enum<?>> tailFields() {
            return List.of(tail.getEnumConstants());
        }
    }

    /** A reply of fields only: {@code { a, b, c }}. */
    public static <H extends Enum<H>> Shape<H, None> shape(Class<H> head) {
        return new Shape<>(head, None.class, None.class);
    }

    /** A head, then entries: {@code { a, b, x1, y1, x2, ... }}. */
    public static <H extends Enum<H>, E extends Enum<E>> Shape<H, E> shape(Class<H> head, Class<E> entry) {
        return new Shape<>(head, entry, None.class);
    }

    /** Entries, then a tail: {@code { x1, x2, ..., t }}. */
    public static <E extends Enum<E>> Shape<None, E> entriesThen(Class<E> entry, Class<? extends Enum<?>> tail) {
        return new Shape<>(None.class, entry, tail);
    }

    private final Shape<H, E> shape;
    private final List<Object> values;

    private Reply(Shape<H, E> shape, List<Object> values) {
        this.shape = shape;
        this.values = values;
    }

    /** How many entries the reply holds. */
    public int entries() {
        return shape.entrySize == 0 ? 0 : (values.size() - shape.headSize - shape.tailSize) / shape.entrySize;
    }

    public long number(H field) {
        return (Long) head(field);
    }

    /** A number that may be nil. */
    public Long numberOrNull(H field) {
        return (Long) head(field);
    }

    public byte[] bytes(H field) {
        return (byte[]) head(field);
    }

    public long number(int entry, E field) {
        return (Long) entry(entry, field);
    }

    public byte[] bytes(int entry, E field) {
        return (byte[]) entry(entry, field);
    }

    /** A field the script returns as text (UTF-8). */
    public String text(int entry, E field) {
        return new String(bytes(entry, field), StandardCharsets.UTF_8);
    }

    /** A field of the tail, by its enum constant's position. */
    public long tailNumber(Enum<?> field) {
        return (Long) values.get(values.size() - shape.tailSize + field.ordinal());
    }

    private Object head(H field) {
        return values.get(field.ordinal());
    }

    private Object entry(int entry, E field) {
        return values.get(shape.headSize + entry * shape.entrySize + field.ordinal());
    }
}
