package dev.weir.postgres;

/**
 * What one {@link PostgresSink#deliver} call did.
 *
 * @param resumedAfter     the output journal position the database held before the call ({@code -1}: none).
 * @param position         the position it holds now.
 * @param sourceOffset     the highest event journal offset the delivered outputs cover ({@code -1}: none yet).
 * @param results          results read from the output journal and upserted.
 * @param changed          of those, rows inserted or updated (the others found a row of the same or a
 *                         higher version already there, or a row whose window holds theirs, or a result of
 *                         their own transaction that superseded them, and changed nothing).
 * @param superseded       rows deleted because a delivered row's window holds their bounds: a session that grew
 *                         or merged after they were delivered (its early row, or an earlier firing).
 * @param transactions     transactions committed.
 */
public record Delivery(long resumedAfter, long position, long sourceOffset, long results, long changed, long superseded, long transactions)
{
    /**
     * @param later a delivery made after this one, by the same sink.
     * @return both as one: resumed after this one's position, up to the later one's, their counts summed.
     */
    public Delivery followedBy(final Delivery later)
    {
        return new Delivery(resumedAfter, later.position, later.sourceOffset, results + later.results, changed + later.changed,
            superseded + later.superseded, transactions + later.transactions);
    }
}
