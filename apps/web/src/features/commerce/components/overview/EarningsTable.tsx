import type { CurrencyEarnings, SellerOverviewView } from '@tinkerdesk/contracts/web';
import { formatMoney, formatMonth } from '../../money';

/** Which month "This month" is, and in which zone it is counted. */
function monthNote(overview: SellerOverviewView): string {
  const month = formatMonth(overview.monthStart, overview.timeZone);
  const zone = overview.profileTimeZone
    ? `${overview.timeZone} time, your profile's time zone`
    : 'UTC, since your profile has no time zone';
  return `This month is ${month}, counted in ${zone}. Orders count in the month they were paid.`;
}

function Figures({ earnings }: { earnings: CurrencyEarnings }) {
  const { currency, month, allTime } = earnings;
  const rows: Array<[string, number, number]> = [
    ['Gross', month.gross, allTime.gross],
    ['Refunds', -month.refunds, -allTime.refunds],
    ['Net', month.net, allTime.net],
  ];
  return (
    <table className="earnings-table">
      <caption>Earnings in {currency}</caption>
      <thead>
        <tr>
          <td />
          <th scope="col">This month</th>
          <th scope="col">All time</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, thisMonth, all]) => (
          <tr key={label} className={label === 'Net' ? 'earnings-net' : undefined}>
            <th scope="row">{label}</th>
            <td>{formatMoney(thisMonth, currency)}</td>
            <td>{formatMoney(all, currency)}</td>
          </tr>
        ))}
        <tr className="earnings-count">
          <th scope="row">Paid orders</th>
          <td>{month.orders}</td>
          <td>{allTime.orders}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** Gross, refunds and net per currency (never added across currencies), this month and of all time. */
export function EarningsTable({ overview }: { overview: SellerOverviewView }) {
  if (overview.earnings.length === 0) {
    return <p className="empty-state-text">No sales yet. Earnings appear here once a buyer pays an order.</p>;
  }
  return (
    <div className="earnings">
      {overview.earnings.map((earnings) => (
        <Figures key={earnings.currency} earnings={earnings} />
      ))}
      <p className="muted">{monthNote(overview)}</p>
    </div>
  );
}
