package io.github.redisdelaybridge.store.inspection;

/** An entry of a listing, at its place in the sorted set it was listed from. */
public interface Listed {

    ListPosition position();
}
