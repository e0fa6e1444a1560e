package com.example.payments;

import java.math.BigDecimal;
import java.nio.file.Path;

import dev.weir.journal.EventJournal;

/**
 * The service's producer: appends payments to a Weir journal of {@link SpendRule#COLUMNS}. One thread.
 */
public final class PaymentsJournal implements AutoCloseable
{
    private final EventJournal journal;
    private long nextId;

    /**
     * @param directory the journal's directory, created if missing.
     */
    public PaymentsJournal(final Path directory)
    {
        this.journal = EventJournal.openOrCreate(directory, SpendRule.COLUMNS);
    }

    /**
     * @param time   event time, epoch ms.
     * @param card   the card.
     * @param amount the amount, two decimals.
     * @param status approved or declined.
     * @return the payment's offset.
     */
    public long append(final long time, final String card, final String amount, final String status)
    {
        return journal.append(journal.row()
            .eventId(nextId++)
            .eventTime(time)
            .setString(0, journal.stringId(0, card))
            .setLong(1, new BigDecimal(amount).movePointRight(2).longValueExact())
            .setString(2, journal.stringId(2, status)));
    }

    @Override
    public void close()
    {
        journal.close();
    }
}
