package io.github.redisdelaybridge.store.dispatch;

/**
 * What a target pattern's token bucket granted ({@code takeTokens.lua}).
 *
 * @param granted  how many of the asked tokens were taken: that many messages may be published now
 * @param redisNow Redis's clock when they were taken (epoch ms)
 */
public record TokensTaken(int granted, long redisNow) {
}
