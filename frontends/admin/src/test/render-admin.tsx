import { useLocation } from 'react-router-dom';
import { renderWithProviders } from '@aict/web-kit/testing';
import App from '../app/App';

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{pathname + search}</output>;
}

/** The admin remote's routes at `route`, as the shell mounts them. */
export function renderAdmin(route: string) {
  return renderWithProviders(
    <>
      <App />
      <LocationProbe />
    </>,
    { route },
  );
}
