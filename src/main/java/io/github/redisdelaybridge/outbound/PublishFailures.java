package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.outbound.client.MessageTooLargeException;
import io.github.redisdelaybridge.outbound.client.PermanentPublishFailure;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * Which failed publishes are permanent: the broker refused this message itself, and would refuse it again however often it
 * is retried (dead-lettered at once); every other failure is retriable (retried with backoff until
 * {@code bridge.retry.max-age-ms}). Permanent:
 * <ul>
 *   <li>RabbitMQ returned the mandatory message as unroutable ({@code NO_ROUTE}: no queue bound for its routing key),
 *       a {@link PermanentPublishFailure}, or refused it as larger than its {@code max_message_size}
 *       ({@link MessageTooLargeException});</li>
 *   <li>Kafka: the record is larger than the producer or the topic accepts ({@link RecordTooLargeException}), the broker
 *       does not allow this producer to write to the topic ({@link TopicAuthorizationException}), or the topic name is not
 *       legal ({@link InvalidTopicException}).</li>
 * </ul>
 * Retriable, because the target may come back or be created while the message waits: a broker that cannot be reached, times
 * out, or nacks (a full queue); a RabbitMQ exchange or a Kafka topic that does not exist ({@code NOT_FOUND},
 * {@code UnknownTopicOrPartitionException}: a topology deployed after the messages, created while they wait, gets them);
 * a closed channel or connection, including one RabbitMQ closed with {@code ACCESS_REFUSED}, which fails every publish
 * pending on it, not only the message it refused.
 */
public final class PublishFailures {

    private PublishFailures() {
    }

    /** True when the failure, or a cause of it, is one the broker would give again for the same message. */
    public static boolean isPermanent(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PermanentPublishFailure || t instanceof RecordTooLargeException || t instanceof TopicAuthorizationException
                    || t instanceof InvalidTopicException || t instanceof MessageTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /** True when the broker refused the message for its size (a smaller form of it may still go). */
    public static boolean isTooLarge(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RecordTooLargeException || t instanceof MessageTooLargeException) {
                return true;
            }
        }
        return false;
    }
}
