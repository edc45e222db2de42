package io.github.redisdelaybridge.store.script;

import io.github.redisdelaybridge.store.Keys;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.function.Function;

/**
 * What one Lua script takes and returns, as its header states it: the keys of a slot it takes, in the header's order,
 * and the shape of its reply (an integer, or an array read by name through {@link Reply}). Each script's contract sits
 * in a class of its own named after it ({@code claim.lua}: {@code ClaimScript}), with the one method that builds its
 * ARGV in the header's order and decodes its reply; {@code ScriptContractsTest} holds every contract to its header.
 *
 * @param <R> the reply as the script's class reads it: {@code Long}, or a {@link Reply}
 */
public final class ScriptContract<R> {

    private final LuaScript script;
    private final List<SlotKey> keys;
    /** The header's name of the one key of a script that takes no slot's keys (a token bucket); null for the others. */
    private final String ownKeyName;
    private final Reply.Shape<?, ?> shape;
    private final ScriptOutputType output;
    private final Function<Object, R> reader;

    private ScriptContract(String name, List<SlotKey> keys, String ownKeyName, Reply.Shape<?, ?> shape, ScriptOutputType output,
                           Function<Object, R> reader) {
        this.script = LuaScript.load(name);
        this.keys = keys;
        this.ownKeyName = ownKeyName;
        this.shape = shape;
        this.output = output;
        this.reader = reader;
    }

    /** A script that returns an integer ({@code Returns: the number of ...}, or codes). */
    public static ScriptContract<Long> returningInteger(String name, SlotKey... keys) {
        return new ScriptContract<>(name, List.of(keys), null, null, ScriptOutputType.INTEGER, reply -> (Long) reply);
    }

    /** A script that returns an array ({@code Returns: { ... }}), read by the names of {@code shape}. */
    public static <H extends Enum<H>, E extends Enum<E>> ScriptContract<Reply<H, E>> returning(Reply.Shape<H, E> shape, String name, SlotKey... keys) {
        return new ScriptContract<>(name, List.of(keys), null, shape, ScriptOutputType.MULTI, shape::read);
    }

    /**
     * A script that returns an array and takes one key outside the slots ({@code KEYS[1] <keyName>}), which
     * {@link Keys} builds and the caller passes ({@link #callOnKey}).
     */
    public static <H extends Enum<H>, E extends Enum<E>> ScriptContract<Reply<H, E>> returningOnOwnKey(Reply.Shape<H, E> shape, String name,
                                                                                                     String keyName) {
        return new ScriptContract<>(name, List.of(), keyName, shape, ScriptOutputType.MULTI, shape::read);
    }

    /** One call of a script that takes one key outside the slots ({@link #returningOnOwnKey}). */
    public <T> ScriptCall<T> callOnKey(String key, Function<R, T> decode, byte[]... args) {
        if (ownKeyName == null) {
            throw new IllegalStateException(script.name() + " takes the keys of a slot");
        }
        return new ScriptCall<>(this, new byte[][] {Argv.text(key)}, args, reader.andThen(decode));
    }

    /**
     * One call on {@code slot}: its keys in the contract's order, {@code args} in the header's ARGV order, and what the
     * reply becomes.
     */
    public <T> ScriptCall<T> call(Keys layout, int slot, Function<R, T> decode, byte[]... args) {
        if (ownKeyName != null) {
            throw new IllegalStateException(script.name() + " takes a key of its own, not a slot's");
        }
        byte[][] keyBytes = new byte[keys.size()][];
        for (int i = 0; i < keyBytes.length; i++) {
            keyBytes[i] = Argv.text(keys.get(i).of(layout, slot));
        }
        return new ScriptCall<>(this, keyBytes, args, reader.andThen(decode));
    }

    public LuaScript script() {
        return script;
    }

    List<SlotKey> keys() {
        return keys;
    }

    /** The names of its keys, as its header gives them. */
    List<String> keyNames() {
        return ownKeyName != null ? List.of(ownKeyName) : keys.stream().map(SlotKey::headerName).toList();
    }

    /** The array reply's fields; null when the script returns an integer. */
    Reply.Shape<?, ?> shape() {
        return shape;
    }

    ScriptOutputType output() {
        return output;
    }

    @Override
    public String toString() {
        return "ScriptContract[" + script.name() + " " + keys + "]";
    }
}
