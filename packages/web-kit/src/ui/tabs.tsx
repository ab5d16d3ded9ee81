import {
  createContext,
  useCallback,
  useContext,
  useId,
  useState,
  type ComponentProps,
  type KeyboardEvent,
} from 'react';
import { cn } from '../lib/cn';

// WAI-ARIA tabs: arrow keys, Home and End move between tabs and select them.

interface TabsState {
  baseId: string;
  value: string;
  select: (value: string) => void;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('Tabs parts must be used inside <Tabs>');
  return state;
}

const safeId = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, '_');

export interface TabsProps extends Omit<ComponentProps<'div'>, 'defaultValue' | 'onChange'> {
  /** The selected tab (controlled, e.g. from ?tab=); else `defaultValue` (uncontrolled). */
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}

export function Tabs({ value, defaultValue = '', onValueChange, className, ...props }: TabsProps) {
  const baseId = useId();
  const [own, setOwn] = useState(defaultValue);
  const current = value ?? own;
  const select = useCallback(
    (next: string) => {
      if (value === undefined) setOwn(next);
      onValueChange?.(next);
    },
    [value, onValueChange],
  );
  return (
    <TabsContext.Provider value={{ baseId, value: current, select }}>
      <div className={cn('wk-tabs', className)} {...props} />
    </TabsContext.Provider>
  );
}

export function TabsList({ className, onKeyDown, ...props }: ComponentProps<'div'>) {
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    const tabs = Array.from(
      event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)'),
    );
    const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const target = {
      ArrowRight: tabs[(index + 1) % tabs.length],
      ArrowLeft: tabs[(index - 1 + tabs.length) % tabs.length],
      Home: tabs[0],
      End: tabs[tabs.length - 1],
    }[event.key];
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.click();
  };
  return (
    <div
      role="tablist"
      className={cn('wk-tabs__list', className)}
      onKeyDown={handleKeyDown}
      {...props}
    />
  );
}

export function TabsTrigger({
  value,
  className,
  onClick,
  ...props
}: ComponentProps<'button'> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={`${tabs.baseId}-tab-${safeId(value)}`}
      aria-controls={`${tabs.baseId}-panel-${safeId(value)}`}
      aria-selected={selected}
      data-state={selected ? 'active' : 'inactive'}
      tabIndex={selected ? 0 : -1}
      className={cn('wk-tabs__trigger', className)}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

/** The panel of tab `value`; rendered only while that tab is selected. */
export function TabsContent({
  value,
  className,
  ...props
}: ComponentProps<'div'> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={`${tabs.baseId}-panel-${safeId(value)}`}
      aria-labelledby={`${tabs.baseId}-tab-${safeId(value)}`}
      tabIndex={0}
      className={cn('wk-tabs__content', className)}
      {...props}
    />
  );
}
