/**
 * Which icon stands for an attribute kind and for a view kind (decision 0235: lucide-react, one
 * icon imported at a time). The table header, the attributes dialog, the view tabs and the "add
 * view" menu read these, so a kind looks the same everywhere. Icons are decorative: the text beside
 * them says what they are.
 */
import {
  AtSign,
  Calendar,
  CalendarRange,
  ChartColumn,
  ChartGantt,
  CircleDot,
  FileText,
  Hash,
  Link,
  Link2,
  List,
  MousePointerClick,
  NotebookText,
  Paperclip,
  SquareCheck,
  SquareKanban,
  Table2,
  Tag,
  TextAlignStart,
  Timer,
  Type,
  Users,
  type LucideIcon,
  type LucideProps,
} from 'lucide-react';

const ATTRIBUTE_ICONS: Record<string, LucideIcon> = {
  primary: Type,
  text: Type,
  'long-text': TextAlignStart,
  number: Hash,
  status: CircleDot,
  label: Tag,
  date: Calendar,
  'date-range': CalendarRange,
  members: Users,
  email: AtSign,
  link: Link,
  reference: Link2,
  checkbox: SquareCheck,
  button: MousePointerClick,
  attachments: Paperclip,
  'custom-id': Hash,
  'time-tracking': Timer,
};

const VIEW_ICONS: Record<string, LucideIcon> = {
  table: Table2,
  column: SquareKanban,
  calendar: Calendar,
  gantt: ChartGantt,
  list: List,
  chart: ChartColumn,
  form: FileText,
  docs: NotebookText,
};

type Props = Omit<LucideProps, 'ref'>;

/** The icon of an attribute kind (Type for an unknown one), 14 px by default. */
export function AttributeKindIcon({ kind, size = 14, ...rest }: Props & { kind: string }) {
  const Icon = ATTRIBUTE_ICONS[kind] ?? Type;
  return <Icon size={size} aria-hidden="true" focusable="false" className="ui-kind-icon" data-kind-icon={kind} {...rest} />;
}

/** The icon of a view kind (Table for an unknown one), 15 px by default. */
export function ViewKindIcon({ kind, size = 15, ...rest }: Props & { kind: string }) {
  const Icon = VIEW_ICONS[kind] ?? Table2;
  return <Icon size={size} aria-hidden="true" focusable="false" className="ui-kind-icon" data-view-icon={kind} {...rest} />;
}
