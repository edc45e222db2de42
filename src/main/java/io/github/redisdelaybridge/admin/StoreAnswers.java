package io.github.redisdelaybridge.admin;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for a Redis answer on behalf of an HTTP request; Redis being unreachable is a 503, not a 500. */
final class StoreAnswers {

    private StoreAnswers() {
    }

    static <T> T await(CompletableFuture<T> answer, long timeoutMs) {
        try {
            return answer.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted while waiting for Redis");
        } catch (TimeoutException e) {
            throw new ApiException(503, "Redis did not answer within " + timeoutMs + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof ApiException api) {
                throw api;
            }
            throw new ApiException(503, "Redis failed: " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }
    }
}
