import { useState } from 'react';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  PRODUCT_NAME,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  usePageTitle,
  useTranslation,
  ImageIcon,
  PromptsIcon,
  SparkIcon,
  TextIcon,
} from '@aict/web-kit';
import { LoginForm, RegisterForm } from './auth-forms';
import { SsoSignIn } from './sso-sign-in';
import { prefetchValidation } from './validate';
import styles from './auth-page.module.css';

export function AuthPage() {
  const [tab, setTab] = useState('login');
  const { t } = useTranslation();
  usePageTitle(tab === 'login' ? t('shell.auth.login') : t('shell.auth.register'));
  return (
    <div className={styles.page}>
      <main className={styles.formSide}>
        {/* under 1024 px the hero is hidden: the product's name and logo head the form */}
        <p className={styles.mobileBrand} data-testid="mobile-brand">
          <span className={styles.mobileLogo} aria-hidden="true">
            <SparkIcon size={18} />
          </span>
          {PRODUCT_NAME}
        </p>
        {/* the validation schemas load when the visitor starts on a form, not with the page */}
        <Card className={styles.card} onFocusCapture={prefetchValidation}>
          <CardHeader>
            <h1 className={styles.heading}>{t('shell.auth.welcome', { product: PRODUCT_NAME })}</h1>
            <CardDescription>{t('shell.auth.intro')}</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs value={tab} onValueChange={setTab}>
              <TabsList className={styles.tabs} aria-label={t('shell.auth.tabsLabel')}>
                <TabsTrigger value="login">{t('shell.auth.login')}</TabsTrigger>
                <TabsTrigger value="register">{t('shell.auth.register')}</TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <SsoSignIn />
                <LoginForm />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </main>
      <aside className={styles.hero} aria-label={t('shell.auth.about')}>
        <div className={styles.heroInner}>
          <span className={styles.heroLogo} aria-hidden="true">
            <SparkIcon size={18} />
          </span>
          <h2 className={styles.heroTitle}>{t('shell.auth.heroTitle')}</h2>
          <p className={styles.heroText}>{t('shell.auth.heroText')}</p>
          <ul className={styles.features}>
            <li>
              <TextIcon size={18} />
              <div>
                <strong>{t('shell.auth.textTitle')}</strong>
                <span>{t('shell.auth.textText')}</span>
              </div>
            </li>
            <li>
              <ImageIcon size={18} />
              <div>
                <strong>{t('shell.auth.imageTitle')}</strong>
                <span>{t('shell.auth.imageText')}</span>
              </div>
            </li>
            <li>
              <PromptsIcon size={18} />
              <div>
                <strong>{t('shell.auth.promptsTitle')}</strong>
                <span>{t('shell.auth.promptsText')}</span>
              </div>
            </li>
          </ul>
        </div>
      </aside>
    </div>
  );
}
