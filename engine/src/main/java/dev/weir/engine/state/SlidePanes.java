package dev.weir.engine.state;

import java.util.List;

import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.EventColumns;

/**
 * The panes of sliding windows: one slide-long aggregate per (key, pane index), so an event is added once, to
 * the pane its time falls in, instead of once to each of the {@code size / slide} windows that hold it; a window's
 * aggregate is its panes' combined ({@link #combineInto}).
 * <p>
 * A pane's index is its start divided by the slide, the slide index of the window that starts with it. Panes are
 * kept in their own {@link WindowSlots} (windows one slide long) and found through their own
 * {@link KeyWindowIndex}, as the windows are: a lookup touches the key's run of ring entries and the pane's slot.
 * The owner opens a pane when its first event comes and closes it when the window that starts with it is
 * discarded, the last window that holds it. Freed panes are reused, so steady state allocates nothing.
 * <p>
 * Not thread-safe: one owner thread, the aggregation stage's.
 */
public final class SlidePanes
{
    private final long slide;
    private final WindowSlots panes;
    private final KeyWindowIndex index;

    /**
     * @param slide          the slide, ms: every pane's length.
     * @param ringSlides     pane indexes a key can have open at once (see {@link KeyWindowIndex}).
     * @param initialPanes   panes to pre-size for.
     * @param aggregations   the user aggregations each pane keeps state for, those of the windows' slots; empty or null for none.
     */
    public SlidePanes(final long slide, final long ringSlides, final int initialPanes, final List<Aggregation> aggregations)
    {
        if (slide <= 0)
        {
            throw new IllegalArgumentException("slide must be > 0: " + slide);
        }
        this.slide = slide;
        this.panes = new WindowSlots(initialPanes, slide, aggregations);
        this.index = new KeyWindowIndex(ringSlides, 1_024, initialPanes);
    }

    /**
     * @param keyId     the key id.
     * @param paneIndex the pane's start divided by the slide.
     * @return its pane, or {@link WindowSlots#NONE} if it has none open.
     */
    public int find(final int keyId, final long paneIndex)
    {
        final long start = paneIndex * slide;
        final int pane = index.ringEntry(keyId, paneIndex);
        if (pane != WindowSlots.NONE && panes.start(pane) == start)
        {
            return pane;
        }
        if (!index.hasOverflow())
        {
            return WindowSlots.NONE;
        }
        final int overflow = index.overflowEntry(keyId, paneIndex);
        return overflow != WindowSlots.NONE && panes.start(overflow) == start ? overflow : WindowSlots.NONE;
    }

    /**
     * Open an empty pane.
     *
     * @param keyId     the key id.
     * @param paneIndex the pane's start divided by the slide; the key has no pane of it open.
     * @return the pane.
     */
    public int open(final int keyId, final long paneIndex)
    {
        assert find(keyId, paneIndex) == WindowSlots.NONE : "one pane per key and index";
        final long start = paneIndex * slide;
        final int pane = panes.allocate(keyId, start, start + slide);
        index.put(keyId, paneIndex, pane);
        return pane;
    }

    /**
     * Add an event to a pane.
     *
     * @param pane  an open pane.
     * @param value the event's value.
     * @param event the event's columns, for user aggregations that read them (may be null if none does).
     * @return true if the pane's sum, or a user aggregation's sum, wrapped.
     */
    public boolean add(final int pane, final long value, final EventColumns event)
    {
        return panes.add(pane, value, event);
    }

    /**
     * @param pane an open pane.
     * @return its wrapping sum of values.
     */
    public long sum(final int pane)
    {
        return panes.sum(pane);
    }

    /**
     * Close a key's pane of an index, if it has one open.
     *
     * @param keyId     the key id.
     * @param paneIndex the pane's start divided by the slide.
     */
    public void close(final int keyId, final long paneIndex)
    {
        final int pane = find(keyId, paneIndex);
        if (pane != WindowSlots.NONE)
        {
            index.remove(keyId, paneIndex, pane);
            panes.free(pane);
        }
    }

    /**
     * Fold the open panes of a key over consecutive indexes into a slot's aggregate.
     *
     * @param target    slots of the same aggregations as the panes'.
     * @param slot      an allocated slot of {@code target}.
     * @param keyId     the key id.
     * @param firstPane the first pane index.
     * @param count     how many consecutive pane indexes.
     */
    public void combineInto(final WindowSlots target, final int slot, final int keyId, final long firstPane, final int count)
    {
        for (long paneIndex = firstPane, end = firstPane + count; paneIndex < end; paneIndex++)
        {
            final int pane = find(keyId, paneIndex);
            if (pane != WindowSlots.NONE)
            {
                target.mergeAggregate(slot, panes, pane);
            }
        }
    }

    /**
     * @return the open panes.
     */
    public int open()
    {
        return panes.open();
    }

    /**
     * Close every pane.
     */
    public void clear()
    {
        panes.reset();
        index.clear();
    }

    /**
     * @return bytes held by the panes and their index.
     */
    public long retainedBytes()
    {
        return panes.retainedBytes() + index.retainedBytes();
    }
}
